package org.logbase.master;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline; the way tests synchronise with asynchronous work. */
final class Await {
  static final Duration DEFAULT = Duration.ofSeconds(20);

  private Await() {}

  static void until(String what, BooleanSupplier condition) {
    until(DEFAULT, what, condition);
  }

  static void until(Duration max, String what, BooleanSupplier condition) {
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
