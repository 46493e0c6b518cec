package org.logbase.chaos.check;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Dependency edges between transactions (nodes are indexes in the history), stored in primitive
 * arrays and, once {@link #freeze frozen}, as compressed adjacency lists. Data edges (ww, wr, rw)
 * carry the key and value that justify them, for explanations.
 */
final class DependencyGraph {
  private final int nodes;
  private int count;
  private int[] from = new int[1024];
  private int[] to = new int[1024];
  private byte[] type = new byte[1024];
  private int[] key = new int[1024];
  private long[] value = new long[1024];
  private int[] offsets;
  private int[] adjacency; // edge ids by source; the targets and types alongside, for sequential scans
  private int[] adjacentTarget;
  private byte[] adjacentType;

  DependencyGraph(int nodes) {
    this.nodes = nodes;
  }

  /** Adds an edge; the key and value justify a data edge (a real-time edge has none). */
  void add(EdgeType t, int source, int target, int keyId, long val) {
    if (source == target) {
      return;
    }
    if (count == from.length) {
      int n = count + (count >> 1);
      from = Arrays.copyOf(from, n);
      to = Arrays.copyOf(to, n);
      type = Arrays.copyOf(type, n);
      key = Arrays.copyOf(key, n);
      value = Arrays.copyOf(value, n);
    }
    from[count] = source;
    to[count] = target;
    type[count] = (byte) t.ordinal();
    key[count] = keyId;
    value[count] = val;
    count++;
  }

  /** Builds the adjacency lists, keeping only edges between nodes. */
  void freeze(IntPredicate isNode) {
    offsets = new int[nodes + 1];
    boolean[] keep = new boolean[count];
    for (int e = 0; e < count; e++) {
      keep[e] = isNode.test(from[e]) && isNode.test(to[e]);
      offsets[from[e] + 1] += keep[e] ? 1 : 0;
    }
    for (int u = 0; u < nodes; u++) {
      offsets[u + 1] += offsets[u];
    }
    adjacency = new int[offsets[nodes]];
    adjacentTarget = new int[offsets[nodes]];
    adjacentType = new byte[offsets[nodes]];
    int[] fill = Arrays.copyOf(offsets, nodes);
    for (int e = 0; e < count; e++) {
      if (keep[e]) {
        int at = fill[from[e]]++;
        adjacency[at] = e;
        adjacentTarget[at] = to[e];
        adjacentType[at] = type[e];
      }
    }
  }

  int nodes() {
    return nodes;
  }

  /** Position of u's first outgoing edge in the adjacency array; {@link #end} is one past its last. */
  int first(int u) {
    return offsets[u];
  }

  int end(int u) {
    return offsets[u + 1];
  }

  /** The edge at a position of the adjacency array. */
  int edgeAt(int position) {
    return adjacency[position];
  }

  int targetAt(int position) {
    return adjacentTarget[position];
  }

  EdgeType typeAt(int position) {
    return EdgeType.of(adjacentType[position]);
  }

  int from(int e) {
    return from[e];
  }

  int to(int e) {
    return to[e];
  }

  EdgeType type(int e) {
    return EdgeType.of(type[e]);
  }

  /** The key of a data edge. */
  int key(int e) {
    return key[e];
  }

  /** The value of a data edge: the target's value for ww and rw, the last value read for wr. */
  long value(int e) {
    return value[e];
  }
}
