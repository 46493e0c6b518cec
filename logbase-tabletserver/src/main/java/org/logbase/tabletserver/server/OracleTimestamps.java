package org.logbase.tabletserver.server;

import org.logbase.client.TimestampClient;
import org.logbase.tablet.TimestampSource;

/**
 * Commit and snapshot timestamps of a tablet server from the cluster's oracle. Concurrent callers
 * share one request to the master ({@link TimestampClient} batches), so a group of one-row writes
 * arriving together costs one round trip.
 */
final class OracleTimestamps implements TimestampSource {
  private final TimestampClient oracle;
  private final WritePathStats stats;

  OracleTimestamps(TimestampClient oracle, WritePathStats stats) {
    this.oracle = oracle;
    this.stats = stats;
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
