package org.logbase.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks the structure of a quiescent tree: every level is a right-linked chain whose ranges
 * tile the key space, parents list exactly the chain below in order, separators equal the
 * children's low bounds, and every node respects the capacity and is sorted.
 */
final class TreeInvariants {

  private TreeInvariants() {}

  static void check(BLinkTree tree, int capacity) {
    Node root = tree.rootNode();
    NodeContents top = root.contents();
    assertNull(top.highKey, "root must be unbounded when quiescent");
    assertNull(top.right, "root must have no right sibling when quiescent");
    List<Node> level = List.of(root);
    long entries = 0;
    for (int depth = top.level(); depth >= 0; depth--) {
      checkChain(level, depth, capacity);
      if (depth == 0) {
        for (Node leaf : level) {
          entries += leaf.contents().keyCount();
        }
        break;
      }
      List<Node> below = new ArrayList<>();
      for (Node n : level) {
        InnerContents inner = (InnerContents) n.contents();
        for (int i = 0; i < inner.children.length; i++) {
          NodeContents child = inner.children[i].contents();
          if (i > 0) {
            // The left neighbour's high key is the child's low bound: it must be separator i-1.
            NodeContents left = inner.children[i - 1].contents();
            assertEquals(0, compareHigh(left, inner, i - 1), "separator differs from child's low bound");
            assertSame(inner.children[i], left.right, "children not linked in order");
          }
          if (i == inner.children.length - 1) {
            assertTrue(sameHigh(child, inner), "last child's high key differs from its parent's");
          }
        }
        below.addAll(List.of(inner.children));
      }
      level = below;
    }
    assertEquals(entries, tree.size(), "size() differs from the number of leaf entries");
  }

  /** The leaf snapshots from left to right, following right links. */
  static List<NodeContents> leaves(BLinkTree tree) {
    Node node = tree.rootNode();
    while (node.contents() instanceof InnerContents inner) {
      node = inner.children[0];
    }
    List<NodeContents> leaves = new ArrayList<>();
    for (; node != null; node = node.contents().right) {
      leaves.add(node.contents());
    }
    return leaves;
  }

  private static void checkChain(List<Node> level, int depth, int capacity) {
    for (int k = 0; k < level.size(); k++) {
      NodeContents c = level.get(k).contents();
      assertEquals(depth, c.level(), "node at wrong level");
      assertTrue(c.size() <= capacity, "node over capacity: " + c.size());
      boolean emptyTree = depth == 0 && level.size() == 1;
      assertTrue(emptyTree || c.size() > 0, "empty node");
      for (int i = 1; i < c.keyCount(); i++) {
        assertTrue(c.compareAt(i - 1, c.keyAt(i), c.timestamps[i]) < 0, "keys not strictly increasing in a node");
      }
      if (c.highKey != null && c.keyCount() > 0) {
        assertFalse(c.isBeyondHigh(c.keyAt(c.keyCount() - 1), c.timestamps[c.keyCount() - 1]),
            "entry at or beyond the high key");
      }
      if (k + 1 < level.size()) {
        assertSame(level.get(k + 1), c.right, "right link does not lead to the next node");
      } else {
        assertNull(c.right, "rightmost node has a right link");
        assertNull(c.highKey, "rightmost node has a high key");
      }
      if (depth == 0 && c.right != null) {
        NodeContents next = c.right.contents();
        assertEquals(0, EntryOrder.compare(c.highKey, c.highTimestamp, next.keyAt(0), next.timestamps[0]),
            "leaf high key differs from the right sibling's first entry");
      }
    }
  }

  private static int compareHigh(NodeContents left, InnerContents parent, int separator) {
    if (left.highKey == null) {
      fail("inner child without high key");
    }
    return -parent.compareAt(separator, left.highKey, left.highTimestamp);
  }

  private static boolean sameHigh(NodeContents a, NodeContents b) {
    if (a.highKey == null || b.highKey == null) {
      return a.highKey == b.highKey;
    }
    return EntryOrder.compare(a.highKey, a.highTimestamp, b.highKey, b.highTimestamp) == 0;
  }
}
