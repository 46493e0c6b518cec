package org.logbase.sorted;

import java.util.ArrayDeque;

/**
 * The arrays scans read data blocks into, reused: a scan reads each block once, and without reuse it
 * would allocate (and the JVM zero) an array per block; writing into new memory is what a scan's
 * time went to (docs/benchmarks.md, "Compaction"). A server's scans share one ({@code
 * sorted.scan.arrays.bytes}, {@link org.logbase.sorted.SortedFormats#open}), and so do their
 * read-ahead threads. A scan gives an array back once nothing it returned still points into it:
 * when it moves past the block if it copied what it took, at its {@link BlockLoans#release} if its
 * rows view the block. Arrays come in powers of two from {@link #MIN_SIZE} to {@link #MAX_SIZE}; a
 * block takes the smallest that holds it, and a longer one (a large value fills a block of its own)
 * an array of its own length, never kept. At most {@link #capacity} bytes are kept idle, so scans
 * waiting for their clients hold none; the array given back last is taken first, as the likeliest
 * still in a CPU's cache. Thread-safe.
 */
public final class BlockArrays {
  static final int MIN_SIZE = 1 << 12;
  static final int MAX_SIZE = 1 << 20;
  /** What a server keeps idle unless configured: enough for about a hundred 64 KiB blocks. */
  public static final long DEFAULT_BYTES = 16L << 20;
  /** What a reader opened without a server's arrays keeps for its own scans. */
  static final long READER_BYTES = 1L << 20;
  private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN_SIZE);

  private final long capacity;
  /** Idle arrays by size: {@code idle[i]} holds arrays of {@code MIN_SIZE << i} bytes, the last given first. */
  private final ArrayDeque<?>[] idle = new ArrayDeque<?>[Integer.numberOfTrailingZeros(MAX_SIZE) - MIN_SHIFT + 1];
  private long idleBytes;

  /** @param capacity bytes of idle arrays kept at most; 0 keeps none */
  public BlockArrays(long capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("the arrays kept take 0 bytes or more, not " + capacity);
    }
    this.capacity = capacity;
    for (int i = 0; i < idle.length; i++) {
      idle[i] = new ArrayDeque<byte[]>();
    }
  }

  /** Bytes of idle arrays kept at most. */
  public long capacity() {
    return capacity;
  }

  /** An array of at least {@code n} bytes: an idle one of its size if kept, else a new one. */
  byte[] take(int n) {
    if (n > MAX_SIZE) {
      return new byte[n];
    }
    int size = Math.max(MIN_SIZE, Integer.highestOneBit(Math.max(1, n - 1)) << 1);
    byte[] b;
    synchronized (this) {
      b = arrays(slot(size)).pollFirst();
      if (b != null) {
        idleBytes -= size;
      }
    }
    return b != null ? b : new byte[size];
  }

  /**
   * Takes back an array from {@link #take}, to reuse it: nothing may read it any more. One this
   * keeps no arrays of (another length), or one past the capacity, is left to the collector.
   */
  void give(byte[] b) {
    int n = b.length;
    if (n < MIN_SIZE || n > MAX_SIZE || Integer.bitCount(n) != 1) {
      return;
    }
    synchronized (this) {
      if (idleBytes + n <= capacity) {
        arrays(slot(n)).addFirst(b);
        idleBytes += n;
      }
    }
  }

  /** Bytes of the arrays kept idle now. */
  public synchronized long idleBytes() {
    return idleBytes;
  }

  private static int slot(int size) {
    return Integer.numberOfTrailingZeros(size) - MIN_SHIFT;
  }

  @SuppressWarnings("unchecked") // every slot holds byte arrays (the constructor)
  private ArrayDeque<byte[]> arrays(int slot) {
    return (ArrayDeque<byte[]>) idle[slot];
  }
}
