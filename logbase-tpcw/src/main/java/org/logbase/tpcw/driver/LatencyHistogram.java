package org.logbase.tpcw.driver;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies in buckets 2% wide (from 1 microsecond to over an hour), recorded concurrently without
 * locks; percentiles are read to within that 2%.
 */
final class LatencyHistogram {
  private static final double GROWTH = 1.02;
  private static final int BUCKETS = 1_200;
  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

  void record(long nanos) {
    counts.incrementAndGet(bucket(Math.max(1, nanos / 1_000)));
  }

  /** Adds another histogram's counts to this one's. */
  void add(LatencyHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts.addAndGet(i, other.counts.get(i));
    }
  }

  private static int bucket(long micros) {
    return (int) Math.min(BUCKETS - 1, Math.log(micros) / Math.log(GROWTH));
  }

  long count() {
    long n = 0;
    for (int i = 0; i < BUCKETS; i++) {
      n += counts.get(i);
    }
    return n;
  }

  /** The latency at percentile {@code p} (0-100) in milliseconds; 0 when nothing was recorded. */
  double percentileMs(double p) {
    long n = count();
    if (n == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(p / 100 * n);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts.get(i);
      if (seen >= rank && counts.get(i) > 0) {
        return Math.pow(GROWTH, i + 0.5) / 1_000;
      }
    }
    return Math.pow(GROWTH, BUCKETS) / 1_000;
  }
}
