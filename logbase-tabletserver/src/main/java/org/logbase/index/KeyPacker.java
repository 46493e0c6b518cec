package org.logbase.index;

import java.util.Arrays;

/** Accumulates keys into packed form (concatenated bytes + end offsets) for the bulk loader. */
final class KeyPacker {

  private byte[] bytes = new byte[1024];
  private int length;
  private int[] ends = new int[64];
  private int count;

  void add(byte[] key) {
    add(key, 0, key.length);
  }

  void add(byte[] src, int from, int to) {
    int n = to - from;
    if (length + n > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
    }
    System.arraycopy(src, from, bytes, length, n);
    length += n;
    if (count == ends.length) {
      ends = Arrays.copyOf(ends, count * 2);
    }
    ends[count++] = length;
  }

  int count() {
    return count;
  }

  /** Compares the last added key, with timestamp {@code lastTs}, to (key, ts) in index order. */
  int compareLast(long lastTs, byte[] key, long ts) {
    int start = count < 2 ? 0 : ends[count - 2];
    return EntryOrder.compare(bytes, start, length, lastTs, key, 0, key.length, ts);
  }

  /** The keys added since the last {@link #clear()}, exactly sized. */
  PackedKeys packed() {
    return PackedKeys.of(Arrays.copyOf(bytes, length), Arrays.copyOf(ends, count));
  }

  void clear() {
    length = 0;
    count = 0;
  }
}
