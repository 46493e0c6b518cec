package org.logbase.sorted;

import java.util.ArrayDeque;

/**
 * The arrays one scan reads its blocks into, reused: a scan reads each block once and is done with
 * it when it moves to the next, so without reuse it would allocate (and the JVM zero) an array per
 * block, about as much work as copying the block out of HDFS. Every array kept is {@link #size}
 * bytes, enough for the segment's blocks up to {@link #MAX_SIZE}; a longer block (one large value
 * fills a block of its own) gets an array of its own length, never kept. At most {@code spares} are
 * kept for reuse, and none after {@link #clear}. A scan gives an
 * array back only when nothing it returns still refers to it (entries are decoded into arrays of
 * their own). The array given back last is taken first: it is the likeliest still in a CPU's cache.
 * The scan's thread and its read-ahead thread share this; thread-safe.
 */
final class BlockBuffers {
  /** The longest array kept: 16 default blocks. */
  static final int MAX_SIZE = 1 << 20;

  private final int size;
  private final int spares;
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>();

  /**
   * @param longest bytes of the longest block to read (arrays kept are this long, at most {@link #MAX_SIZE})
   * @param spares arrays kept for reuse
   */
  BlockBuffers(int longest, int spares) {
    if (longest < 0 || spares < 1) {
      throw new IllegalArgumentException("longest block " + longest + " and spares " + spares);
    }
    this.size = Math.min(longest, MAX_SIZE);
    this.spares = spares;
  }

  int size() {
    return size;
  }

  /** An array of at least {@code n} bytes: a spare one, or a new one. */
  byte[] take(int n) {
    if (n > size) {
      return new byte[n];
    }
    byte[] b;
    synchronized (spare) {
      b = spare.pollFirst();
    }
    return b != null ? b : new byte[size];
  }

  /** Lets go of the spares: a scan that has ended holds none. */
  void clear() {
    synchronized (spare) {
      spare.clear();
    }
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
