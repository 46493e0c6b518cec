package org.logbase.client;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.logbase.common.LogBaseException;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;

/**
 * Runs a transaction body until one attempt commits: a conflict or an abort starts a new
 * transaction (new snapshot) after a randomised, growing pause, so that contenders spread out.
 */
final class TransactionRunner {
  private final Supplier<Transaction> begin;
  private final int attempts;
  private final long initialBackoffMs;

  TransactionRunner(Supplier<Transaction> begin, int attempts, long initialBackoffMs) {
    this.begin = begin;
    this.attempts = attempts;
    this.initialBackoffMs = initialBackoffMs;
  }

  <T> T run(TransactionBody<T> body) {
    long pauseMs = initialBackoffMs;
    LogBaseException last = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try (Transaction txn = begin.get()) {
        T result = body.run(txn);
        txn.commit();
        return result;
      } catch (TransactionConflictException | TransactionAbortedException e) {
        last = e;
      }
      try {
        Thread.sleep(ThreadLocalRandom.current().nextLong(pauseMs / 2, pauseMs + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LogBaseException("interrupted between transaction attempts", e);
      }
      pauseMs = Math.min(pauseMs * 2, 2000);
    }
    throw last;
  }
}
