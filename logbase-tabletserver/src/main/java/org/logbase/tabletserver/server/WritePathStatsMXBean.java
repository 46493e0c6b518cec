package org.logbase.tabletserver.server;

/**
 * A tablet server's row writes (Put, Delete, BatchMutate) as JMX shows them
 * ({@code org.logbase:type=TabletServer,name=WritePath,*}): totals since start, so that a tool
 * reading them twice gets rates and per-request averages, and can see where a request's time goes.
 */
public interface WritePathStatsMXBean {
  /** Write requests that completed successfully. */
  long getRequests();

  /** Rows those requests carried. */
  long getRows();

  /** Summed time from a request's arrival in its handler until its rows were queued on the log (row locks and timestamps taken), in nanoseconds. */
  long getNanosUntilAppended();

  /** Summed time from a request's arrival in its handler until it was durable and visible, in nanoseconds. */
  long getNanosUntilDurable();

  /** Calls to the timestamp oracle (for writes, commits and snapshots alike). */
  long getOracleCalls();

  /** Summed time of those calls, in nanoseconds. */
  long getOracleNanos();
}
