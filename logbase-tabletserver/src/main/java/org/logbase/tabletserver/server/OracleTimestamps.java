package org.logbase.tabletserver.server;

import org.logbase.client.TimestampClient;
import org.logbase.tablet.TimestampSource;

/**
 * Commit and snapshot timestamps of a tablet server from the cluster's oracle. Concurrent callers
 * share one request to the master ({@link TimestampClient} batches), so a group of one-row writes
 * arriving together costs one round trip.
 */
final class OracleTimestamps implements TimestampSource {
  /** The oldest held snapshot while the master's answer is older than this: everything is kept. */
  static final long HELD_STALE_AFTER_MS = 30_000;
  private final TimestampClient oracle;
  private final WritePathStats stats;
  private volatile long oldestHeld = 1;
  private volatile long heardNanos = System.nanoTime();

  OracleTimestamps(TimestampClient oracle, WritePathStats stats) {
    this.oracle = oracle;
    this.stats = stats;
  }

  /** What the master answered a heartbeat with: the oldest snapshot a client holds (0: none). */
  void heldSnapshots(long oldest) {
    oldestHeld = oldest;
    heardNanos = System.nanoTime();
  }

  /**
   * The master's last answer; 1 (keep everything) before the first one and when it is older than
   * {@link #HELD_STALE_AFTER_MS} (the master unreachable: a lease taken meanwhile is not known here).
   */
  @Override
  public long oldestHeldSnapshot() {
    if (System.nanoTime() - heardNanos > HELD_STALE_AFTER_MS * 1_000_000) {
      return 1;
    }
    return oldestHeld;
  }

  @Override
  public long next() {
    return nextRange(1);
  }

  @Override
  public long nextRange(int count) {
    long start = System.nanoTime();
    long first = oracle.next(count)[0];
    stats.oracleCall(System.nanoTime() - start);
    return first;
  }

  /** Nothing to do: the oracle is above every timestamp any server ever wrote. */
  @Override
  public void observe(long ts) {}
}
