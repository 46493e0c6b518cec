package org.logbase.index;

/**
 * A B-link tree node: a stable identity (what parents and right links point to) holding one
 * volatile reference to its current immutable {@link NodeContents}.
 *
 * <p>Readers just read {@link #contents()} and work on that snapshot. Writers modify a node only
 * while holding its monitor ({@code synchronized (node)}): the monitor costs no memory until
 * contended, unlike a lock object per node.
 */
final class Node {

  private volatile NodeContents contents;

  /** Creates a node; {@code contents} may be null only while a bulk load is still building it. */
  Node(NodeContents contents) {
    this.contents = contents;
  }

  NodeContents contents() {
    return contents;
  }

  /** Replaces the snapshot; callers hold this node's monitor or the node is not yet reachable. */
  void publish(NodeContents next) {
    contents = next;
  }
}
