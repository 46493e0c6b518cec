package org.logbase.client;

import io.grpc.Deadline;
import java.util.concurrent.TimeUnit;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;

/**
 * Exponentially growing pauses between attempts of one operation, bounded by its deadline.
 * Servers recover from what makes a request retriable (a tablet moving, a master failing over) in
 * milliseconds to seconds, so the first retries come fast and later ones spread out.
 */
final class Backoff {
  private final long initialMs;
  private final long maxMs;
  private final Deadline deadline;
  private long nextMs;
  private int retries;

  Backoff(long initialMs, long maxMs, Deadline deadline) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
    this.deadline = deadline;
    this.nextMs = initialMs;
  }

  Deadline deadline() {
    return deadline;
  }

  /**
   * Waits before the next attempt after {@code failure}, or throws it: at once when it is not
   * retriable, or when the deadline leaves no time for another attempt.
   */
  void pause(LogBaseException failure) {
    if (!RpcErrors.isRetriable(failure)) {
      throw failure;
    }
    long leftMs = deadline.timeRemaining(TimeUnit.MILLISECONDS);
    if (leftMs <= 0) {
      throw gaveUp(failure);
    }
    try {
      Thread.sleep(Math.min(nextMs, leftMs));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted while waiting to retry: " + failure.getMessage(), failure);
    }
    nextMs = Math.min(nextMs * 2, maxMs);
    retries++;
  }

  /** Starts the pauses over, after an attempt made progress. */
  void reset() {
    nextMs = initialMs;
  }

  /** {@code last}, noted as the failure retried until the deadline. */
  LogBaseException gaveUp(LogBaseException last) {
    // Keep the type of the last failure: callers catch NotServingTabletException and friends.
    last.addSuppressed(new LogBaseException("gave up after " + (retries + 1) + " attempts: deadline reached"));
    return last;
  }
}
