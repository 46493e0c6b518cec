package org.logbase.client;

/**
 * The client's row writes as JMX shows them ({@code org.logbase:type=Client,name=Writes,*}): totals
 * since the client connected, so that a tool reading them twice gets rates and averages.
 */
public interface WriteStatsMXBean {
  /** BatchMutate requests answered (successfully or not). */
  long getRequests();

  /** Rows those requests carried. */
  long getRows();

  /** Summed time from sending each request to its answer, in nanoseconds. */
  long getRoundTripNanos();
}
