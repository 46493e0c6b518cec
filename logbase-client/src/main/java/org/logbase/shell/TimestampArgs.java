package org.logbase.shell;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.logbase.common.HybridTimestamp;

/**
 * Timestamps typed in the shell: a hybrid timestamp as a number, an ISO-8601 instant
 * ({@code 2024-05-01T10:00:00Z}: the table as of that moment), or the printed form
 * {@code instant#logical}; and the printed form of a timestamp.
 */
final class TimestampArgs {
  private TimestampArgs() {}

  static long parse(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("latest")) {
      return HybridTimestamp.LATEST;
    }
    try {
      if (t.chars().allMatch(Character::isDigit)) {
        long ts = Long.parseLong(t);
        if (ts == 0) {
          throw new ShellException("invalid timestamp 0: timestamps start above 0 (leave --as-of out, or give"
              + " 'latest', for the newest versions)");
        }
        return ts;
      }
      int hash = t.indexOf('#');
      if (hash > 0) {
        return HybridTimestamp.of(Instant.parse(t.substring(0, hash)).toEpochMilli(),
            Integer.parseInt(t.substring(hash + 1)));
      }
      return HybridTimestamp.atInstant(Instant.parse(t));
    } catch (DateTimeParseException | IllegalArgumentException e) {
      throw new ShellException("invalid timestamp '" + text + "': give a number, an ISO instant such as"
          + " 2024-05-01T10:00:00Z, or instant#logical");
    }
  }

  /** "number (instant#logical)": the number to paste into --as-of, the instant to read. */
  static String format(long ts) {
    return ts + " (" + HybridTimestamp.toString(ts) + ")";
  }
}
