package org.logbase.compaction;

import java.io.InterruptedIOException;

/**
 * Holds a compaction to a rate of bytes per second ({@code compaction.throughput.bytes.per.sec}),
 * so that the reads and writes it competes with keep their latency: each call waits until the
 * bytes before it fit the rate, allowing a burst of at most one second's worth. 0: no limit.
 */
final class Throttle {
  private final double bytesPerNano;
  private long allowedAtNanos = System.nanoTime();

  Throttle(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("a rate is at least 0 (no limit): " + bytesPerSecond);
    }
    this.bytesPerNano = bytesPerSecond / 1e9;
  }

  /** Accounts for {@code bytes} just processed; waits if they went past the rate. */
  void acquire(long bytes) throws InterruptedIOException {
    if (bytesPerNano == 0) {
      return;
    }
    long now = System.nanoTime();
    allowedAtNanos = Math.max(allowedAtNanos, now - 1_000_000_000L) + (long) (bytes / bytesPerNano);
    long waitNanos = allowedAtNanos - now;
    if (waitNanos > 0) {
      try {
        Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while throttled");
      }
    }
  }
}
