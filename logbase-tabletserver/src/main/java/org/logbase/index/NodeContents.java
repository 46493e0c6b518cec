package org.logbase.index;

import java.util.Arrays;

/**
 * An immutable snapshot of one node: sorted (key, timestamp) pairs in packed arrays, plus the
 * Lehman-Yao high key and right link.
 *
 * <p>The node covers the entries e with {@code low <= e < high}, where low is fixed for the life
 * of the node and high (null = unbounded) only ever decreases when the node splits. Keys are
 * concatenated in {@link #keyBytes} with exclusive end offsets in {@link #keyEnds}; every array
 * is exactly as long as the entry count, so a snapshot holds no empty slots.
 */
abstract sealed class NodeContents permits LeafContents, InnerContents {

  final byte[] keyBytes;
  final int[] keyEnds;
  final long[] timestamps;
  /** Exclusive upper bound of this node's range (null = unbounded), with {@link #highTimestamp}. */
  final byte[] highKey;
  final long highTimestamp;
  /** The right sibling, whose low bound is this node's high key; null for the rightmost node. */
  final Node right;

  NodeContents(byte[] keyBytes, int[] keyEnds, long[] timestamps, byte[] highKey, long highTimestamp, Node right) {
    this.keyBytes = keyBytes;
    this.keyEnds = keyEnds;
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
    return i == 0 ? 0 : keyEnds[i - 1];
  }

  final byte[] keyAt(int i) {
    return Arrays.copyOfRange(keyBytes, keyStart(i), keyEnds[i]);
  }

  /** Compares packed entry {@code i} with (key, ts) in index order. */
  final int compareAt(int i, byte[] key, long ts) {
    return EntryOrder.compare(keyBytes, keyStart(i), keyEnds[i], timestamps[i], key, 0, key.length, ts);
  }

  /** Compares only the key bytes of entry {@code i} with {@code key}. */
  final int compareKeyAt(int i, byte[] key) {
    return Arrays.compareUnsigned(keyBytes, keyStart(i), keyEnds[i], key, 0, key.length);
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

  final byte[] keyBytesWith(int i, byte[] key) {
    return ArrayEdits.insertBytes(keyBytes, keyStart(i), key);
  }

  final int[] keyEndsWith(int i, byte[] key) {
    return ArrayEdits.insertEnd(keyEnds, i, key.length);
  }

  final byte[] keyBytesSlice(int from, int to) {
    return Arrays.copyOfRange(keyBytes, keyStart(from), to == 0 ? 0 : keyEnds[to - 1]);
  }

  final int[] keyEndsSlice(int from, int to) {
    return ArrayEdits.rebasedEnds(keyEnds, from, to);
  }

  final long[] timestampsSlice(int from, int to) {
    return Arrays.copyOfRange(timestamps, from, to);
  }
}
