package org.logbase.client;

import io.grpc.Deadline;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;

/** Repeats an attempt that failed retriably, with {@link Backoff} pauses, until its deadline. */
final class Retrier {
  /** One attempt; it throws the typed exception of its failure. */
  @FunctionalInterface
  interface Attempt<T> {
    T run();
  }

  private final long initialMs;
  private final long maxMs;

  Retrier(long initialMs, long maxMs) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
  }

  Backoff backoff(Deadline deadline) {
    return new Backoff(initialMs, maxMs, deadline);
  }

  /**
   * Runs {@code attempt} until it succeeds, fails for good, or the deadline passes. When the deadline
   * cuts the last attempt short, the failure thrown is the one the retries were waiting out (a
   * tablet whose server is down, say), not the "deadline exceeded" of whichever call came last.
   */
  <T> T run(Deadline deadline, Attempt<T> attempt) {
    Backoff backoff = backoff(deadline);
    LogBaseException retried = null;
    while (true) {
      try {
        return attempt.run();
      } catch (LogBaseException e) {
        if (retried != null && RpcErrors.isDeadlineExceeded(e)) {
          throw backoff.gaveUp(retried);
        }
        backoff.pause(e);
        retried = e;
      }
    }
  }
}
