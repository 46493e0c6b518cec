package org.logbase.chaos.workload;

import java.time.Instant;

/**
 * One clock for a run's whole history, across the runner and its client processes: nanoseconds
 * since the run began, read from the wall clock (the processes share one machine; monotonic clocks
 * are not comparable between JVMs).
 */
public final class RunClock {
  private final long startEpochNanos;

  public RunClock(long startEpochNanos) {
    this.startEpochNanos = startEpochNanos;
  }

  public static RunClock startingNow() {
    return new RunClock(epochNanos());
  }

  public long startEpochNanos() {
    return startEpochNanos;
  }

  /** Nanoseconds since the run began. */
  public long now() {
    return epochNanos() - startEpochNanos;
  }

  private static long epochNanos() {
    Instant i = Instant.now();
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }
}
