package org.logbase.index;

import java.util.Arrays;

/**
 * An immutable snapshot of one node: sorted (key, timestamp) pairs in packed arrays, plus the
 * Lehman-Yao high key and right link.
 *
 * <p>The node covers the entries e with {@code low <= e < high}, where low is fixed for the life
 * of the node and high (null = unbounded) only ever decreases when the node splits. Keys are
 * packed as described in {@link PackedKeys}; every array is exactly as long as the entry count,
 * so a snapshot holds no empty slots.
 */
abstract sealed class NodeContents permits LeafContents, InnerContents {

  final byte[] keyBytes;
  /** Exclusive end offset of each key, or null when every key is {@link #keyWidth} bytes long. */
  final int[] keyEnds;
  final int keyWidth;
  final long[] timestamps;
  /** Exclusive upper bound of this node's range (null = unbounded), with {@link #highTimestamp}. */
  final byte[] highKey;
  final long highTimestamp;
  /** The right sibling, whose low bound is this node's high key; null for the rightmost node. */
  final Node right;

  NodeContents(PackedKeys keys, long[] timestamps, byte[] highKey, long highTimestamp, Node right) {
    this.keyBytes = keys.bytes();
    this.keyEnds = keys.ends();
    this.keyWidth = keys.width();
    this.timestamps = timestamps;
    this.highKey = highKey;
    this.highTimestamp = highTimestamp;
    this.right = right;
  }

  /** 0 for leaves, parents are one level above their children. */
  abstract int level();

  /** Entries of a leaf, children of an inner node: what the node capacity bounds. */
  abstract int size();

  /** The contents of the right half when splitting at {@code mid} (same high key and right link). */
  abstract NodeContents upperHalf(int mid);

  /** The contents of the left half when splitting at {@code mid}, linked to {@code sibling}. */
  abstract NodeContents lowerHalf(int mid, Node sibling);

  /** Index of the key that becomes the separator (and the left half's high key) at {@code mid}. */
  abstract int separatorIndex(int mid);

  /** Number of packed keys. */
  final int keyCount() {
    return timestamps.length;
  }

  final int keyStart(int i) {
    int[] ends = keyEnds;
    return ends == null ? i * keyWidth : (i == 0 ? 0 : ends[i - 1]);
  }

  final int keyEnd(int i) {
    int[] ends = keyEnds;
    return ends == null ? (i + 1) * keyWidth : ends[i];
  }

  final byte[] keyAt(int i) {
    return Arrays.copyOfRange(keyBytes, keyStart(i), keyEnd(i));
  }

  /** Compares packed entry {@code i} with (key, ts) in index order. */
  final int compareAt(int i, byte[] key, long ts) {
    return EntryOrder.compare(keyBytes, keyStart(i), keyEnd(i), timestamps[i], key, 0, key.length, ts);
  }

  /** Compares only the key bytes of entry {@code i} with {@code key}. */
  final int compareKeyAt(int i, byte[] key) {
    return Arrays.compareUnsigned(keyBytes, keyStart(i), keyEnd(i), key, 0, key.length);
  }

  /** Index of the first entry {@code >= (key, ts)}, or {@link #keyCount()} if none. */
  final int lowerBound(byte[] key, long ts) {
    int lo = 0;
    int hi = keyCount();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareAt(mid, key, ts) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Index of the first entry {@code > (key, ts)}, or {@link #keyCount()} if none. */
  final int upperBound(byte[] key, long ts) {
    int lo = 0;
    int hi = keyCount();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareAt(mid, key, ts) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** True if (key, ts) is at or beyond the high key: it belongs to a node further right. */
  final boolean isBeyondHigh(byte[] key, long ts) {
    return highKey != null && EntryOrder.compare(key, ts, highKey, highTimestamp) >= 0;
  }

  // Helpers for subclasses building edited copies.

  /** These keys, to share unchanged with a copy that only edits values. */
  final PackedKeys keys() {
    return new PackedKeys(keyBytes, keyEnds, keyWidth);
  }

  /** These keys with {@code key} inserted at index {@code i}. */
  final PackedKeys keysWith(int i, byte[] key) {
    byte[] bytes = ArrayEdits.insertBytes(keyBytes, keyStart(i), key);
    if (keyEnds == null && (key.length == keyWidth || keyCount() == 0)) {
      return PackedKeys.fixed(bytes, key.length);
    }
    return new PackedKeys(bytes, ArrayEdits.insertEnd(ends(), i, key.length), 0);
  }

  /** Keys [from, to); a slice of variable-length keys may turn out to be fixed-length. */
  final PackedKeys keysSlice(int from, int to) {
    byte[] bytes = Arrays.copyOfRange(keyBytes, keyStart(from), keyStart(to));
    return keyEnds == null ? PackedKeys.fixed(bytes, keyWidth)
        : PackedKeys.of(bytes, ArrayEdits.rebasedEnds(keyEnds, from, to));
  }

  private int[] ends() {
    if (keyEnds != null) {
      return keyEnds;
    }
    int[] ends = new int[keyCount()];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = (i + 1) * keyWidth;
    }
    return ends;
  }

  final long[] timestampsSlice(int from, int to) {
    return Arrays.copyOfRange(timestamps, from, to);
  }
}
