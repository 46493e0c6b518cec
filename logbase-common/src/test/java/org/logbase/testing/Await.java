package org.logbase.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline; the way tests synchronise with asynchronous work. */
public final class Await {
  public static final Duration DEFAULT = Duration.ofSeconds(20);

  private Await() {}

  public static void until(String what, BooleanSupplier condition) {
    until(DEFAULT, what, condition);
  }

  public static void until(Duration max, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + max.toMillis() + " ms: " + what);
      }
      try {
        Thread.sleep(10); // polling interval, not synchronisation: the condition decides
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for: " + what);
      }
    }
  }
}
