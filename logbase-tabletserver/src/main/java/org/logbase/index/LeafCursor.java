package org.logbase.index;

/**
 * Walks leaf snapshots left to right along the right links.
 *
 * <p>Weak consistency follows from the B-link invariants: a leaf's low bound never changes and
 * equals its left neighbour's high key at the time the link was published, so the next leaf
 * reached through a snapshot's right link only holds entries above everything in that snapshot
 * (keys strictly increase), and every entry that existed when the cursor started is in the
 * snapshot of whichever leaf covered it when the cursor got there.
 */
final class LeafCursor implements IndexCursor {

  private LeafContents leaf;
  private int index;
  private final byte[] endExclusive;
  private boolean positioned;

  /**
   * @param leaf the snapshot holding the first candidate entry (or whose right link leads to it)
   * @param first index of the first candidate entry in {@code leaf}
   * @param endExclusive stop at the first key {@code >=} this (null = run to the end)
   */
  LeafCursor(LeafContents leaf, int first, byte[] endExclusive) {
    this.leaf = leaf;
    this.index = first - 1;
    this.endExclusive = endExclusive;
  }

  @Override
  public boolean next() {
    if (leaf == null) {
      return false;
    }
    LeafContents current = leaf;
    int i = index + 1;
    while (i >= current.keyCount()) {
      if (current.right == null) {
        return finish();
      }
      current = (LeafContents) current.right.contents();
      i = 0;
    }
    if (endExclusive != null && current.compareKeyAt(i, endExclusive) >= 0) {
      return finish();
    }
    leaf = current;
    index = i;
    positioned = true;
    return true;
  }

  private boolean finish() {
    leaf = null;
    positioned = false;
    return false;
  }

  private LeafContents current() {
    if (!positioned) {
      throw new IllegalStateException("cursor is not on an entry");
    }
    return leaf;
  }

  @Override
  public byte[] key() {
    return current().keyAt(index);
  }

  @Override
  public long timestamp() {
    return current().timestamps[index];
  }

  @Override
  public long pointer() {
    return current().pointers[index];
  }

  @Override
  public int meta() {
    return current().metas[index];
  }
}
