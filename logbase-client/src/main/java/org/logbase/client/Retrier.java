package org.logbase.client;

import io.grpc.Deadline;
import org.logbase.common.LogBaseException;

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

  <T> T run(Deadline deadline, Attempt<T> attempt) {
    Backoff backoff = backoff(deadline);
    while (true) {
      try {
        return attempt.run();
      } catch (LogBaseException e) {
        backoff.pause(e);
      }
    }
  }
}
