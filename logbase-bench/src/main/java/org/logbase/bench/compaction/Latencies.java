package org.logbase.bench.compaction;

import java.util.Arrays;

/**
 * Latencies of one operation on several threads, kept only between {@link #start} and
 * {@link #stop} (a timed loop's window). Each thread writes its own array; read them after the
 * threads have been joined.
 */
final class Latencies {
  private final long[][] nanos;
  private final int[] counts;
  private volatile boolean recording;

  Latencies(int threads) {
    nanos = new long[threads][4096];
    counts = new int[threads];
  }

  void start() {
    recording = true;
  }

  void stop() {
    recording = false;
  }

  void record(int thread, long n) {
    if (!recording) {
      return;
    }
    int c = counts[thread];
    if (c == nanos[thread].length) {
      nanos[thread] = Arrays.copyOf(nanos[thread], c * 2);
    }
    nanos[thread][c] = n;
    counts[thread] = c + 1;
  }

  /** Every latency recorded, sorted. */
  long[] sorted() {
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    long[] all = new long[total];
    int at = 0;
    for (int t = 0; t < counts.length; t++) {
      System.arraycopy(nanos[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    return all;
  }

  /** The {@code p}-th percentile (0 to 100) of sorted latencies, in milliseconds; NaN if there are none. */
  static double millis(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
  }

  /** Two sorted arrays merged into one. */
  static long[] merge(long[] a, long[] b) {
    long[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    Arrays.sort(all);
    return all;
  }
}
