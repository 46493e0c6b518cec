package org.logbase.common;

import java.time.Instant;

/**
 * 64-bit hybrid timestamps: {@code (wall-clock milliseconds << 16) | logical counter}. Ordering
 * them as longs orders them in time, and a user can turn "the table as of 10:00" into one.
 */
public final class HybridTimestamp {
  public static final int LOGICAL_BITS = 16;
  public static final long LOGICAL_MASK = (1L << LOGICAL_BITS) - 1;
  /** Reads "as of" this see the newest version of everything. */
  public static final long LATEST = Long.MAX_VALUE;

  private HybridTimestamp() {}

  public static long of(long wallMillis, int logical) {
    if (logical < 0 || logical > LOGICAL_MASK) {
      throw new IllegalArgumentException("logical counter out of range: " + logical);
    }
    return (wallMillis << LOGICAL_BITS) | logical;
  }

  /** The smallest timestamp at the given instant: reads "as of" it see everything written before. */
  public static long atInstant(Instant instant) {
    return (instant.toEpochMilli() << LOGICAL_BITS) | LOGICAL_MASK;
  }

  public static long wallMillis(long ts) {
    return ts >>> LOGICAL_BITS;
  }

  public static int logical(long ts) {
    return (int) (ts & LOGICAL_MASK);
  }

  public static String toString(long ts) {
    if (ts == LATEST) {
      return "LATEST";
    }
    return Instant.ofEpochMilli(wallMillis(ts)) + "#" + logical(ts);
  }
}
