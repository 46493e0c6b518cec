package org.logbase.sorted;

import java.util.ArrayDeque;

/**
 * The arrays one scan reads its blocks into, reused: a scan reads each block once and is done with
 * it when it moves to the next, so without reuse it would allocate (and the JVM zero) an array per
 * block, about as much work as copying the block out of HDFS. Every array is {@link #size} bytes,
 * enough for any block of the segment; at most {@code spares} are kept for reuse. A scan gives an
 * array back only when nothing it returns still refers to it (entries are decoded into arrays of
 * their own). The array given back last is taken first: it is the likeliest still in a CPU's cache.
 * The scan's thread and its read-ahead thread share this; thread-safe.
 */
final class BlockBuffers {
  private final int size;
  private final int spares;
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>();

  /**
   * @param size bytes in each array: at least the longest stored block
   * @param spares arrays kept for reuse
   */
  BlockBuffers(int size, int spares) {
    if (size < 0 || spares < 1) {
      throw new IllegalArgumentException("size " + size + " and spares " + spares);
    }
    this.size = size;
    this.spares = spares;
  }

  int size() {
    return size;
  }

  /** A spare array, or a new one. */
  byte[] take() {
    byte[] b;
    synchronized (spare) {
      b = spare.pollFirst();
    }
    return b != null ? b : new byte[size];
  }

  /** Takes back an array from {@link #take} to reuse (one of another size is left to the collector). */
  void give(byte[] b) {
    if (b.length != size) {
      return;
    }
    synchronized (spare) {
      if (spare.size() < spares) { // else dropped: enough are kept
        spare.addFirst(b);
      }
    }
  }
}
