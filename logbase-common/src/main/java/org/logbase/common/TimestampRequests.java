package org.logbase.common;

/**
 * The limits of one GetTimestamps request, shared by the oracle that enforces them and the client
 * that batches requests up to them.
 */
public final class TimestampRequests {
  /**
   * Most timestamps one request may ask for: one millisecond's worth of the logical counter, so a
   * single request can never push the oracle more than a millisecond ahead of its wall clock.
   */
  public static final int MAX_COUNT = 1 << HybridTimestamp.LOGICAL_BITS;

  private TimestampRequests() {}

  /** Returns {@code count} if one request may ask for that many timestamps, else throws. */
  public static int checkCount(int count) {
    if (count < 1 || count > MAX_COUNT) {
      throw new InvalidRequestException("a timestamp request asks for 1 to " + MAX_COUNT + " timestamps, not " + count);
    }
    return count;
  }
}
