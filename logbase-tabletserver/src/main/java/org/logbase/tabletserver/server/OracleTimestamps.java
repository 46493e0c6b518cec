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

  OracleTimestamps(TimestampClient oracle) {
    this.oracle = oracle;
  }

  @Override
  public long next() {
    return oracle.next();
  }

  @Override
  public long nextRange(int count) {
    return oracle.next(count)[0];
  }

  /** Nothing to do: the oracle is above every timestamp any server ever wrote. */
  @Override
  public void observe(long ts) {}
}
