package org.logbase.index;

import java.util.Arrays;

/**
 * Inner node snapshot: n children and n - 1 separators. Separator {@code i} is the low bound of
 * child {@code i + 1}; child 0 starts at the node's own low bound.
 */
final class InnerContents extends NodeContents {

  private final int level;
  final Node[] children;

  InnerContents(int level, PackedKeys keys, long[] timestamps, Node[] children,
      byte[] highKey, long highTimestamp, Node right) {
    super(keys, timestamps, highKey, highTimestamp, right);
    this.level = level;
    this.children = children;
  }

  /** A new root above {@code leftmost}: covers everything, finds the rest via right links. */
  static InnerContents rootOver(int level, Node leftmost) {
    return new InnerContents(level, PackedKeys.fixed(new byte[0], 0), new long[0], new Node[] {leftmost},
        null, 0, null);
  }

  @Override
  int level() {
    return level;
  }

  @Override
  int size() {
    return children.length;
  }

  /** The child whose range contains (key, ts), assuming this node's range does. */
  Node childFor(byte[] key, long ts) {
    return children[upperBound(key, ts)];
  }

  /**
   * A copy with the sibling from a split below added: its separator at {@code i} (the separator's
   * {@link #lowerBound}), the sibling itself as child {@code i + 1}.
   */
  InnerContents withChild(int i, Split child) {
    byte[] separator = child.separatorKey();
    return new InnerContents(level, keysWith(i, separator), ArrayEdits.insert(timestamps, i, child.separatorTimestamp()),
        ArrayEdits.insert(children, i + 1, child.sibling()), highKey, highTimestamp, right);
  }

  @Override
  InnerContents upperHalf(int mid) {
    // Children [mid, n) keep the separators between them: [mid, n - 1).
    return new InnerContents(level, keysSlice(mid, keyCount()), timestampsSlice(mid, keyCount()), Arrays.copyOfRange(children, mid, children.length),
        highKey, highTimestamp, right);
  }

  @Override
  InnerContents lowerHalf(int mid, Node sibling) {
    // Children [0, mid) keep separators [0, mid - 1); separator mid - 1 becomes the high key.
    return new InnerContents(level, keysSlice(0, mid - 1), timestampsSlice(0, mid - 1), Arrays.copyOf(children, mid),
        keyAt(mid - 1), timestamps[mid - 1], sibling);
  }

  @Override
  int separatorIndex(int mid) {
    return mid - 1;
  }
}
