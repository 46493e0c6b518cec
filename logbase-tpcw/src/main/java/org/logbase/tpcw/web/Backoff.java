package org.logbase.tpcw.web;

import java.util.concurrent.ThreadLocalRandom;
import org.logbase.common.LogBaseException;

/** The pause before another attempt of a transaction that lost a conflict: random, growing, capped. */
public final class Backoff {
  private static final long FIRST_MS = 2;
  private static final long MAX_MS = 200;

  private Backoff() {}

  /** Pauses before attempt {@code attempt + 1} (attempt counts from 0). */
  public static void pause(int attempt) {
    long cap = Math.min(MAX_MS, FIRST_MS << Math.min(attempt, 10));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted between transaction attempts", e);
    }
  }
}
