package org.logbase.shell;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.logbase.common.Echo;
import org.logbase.common.schema.StoragePolicy;

/** Times to live as the shell reads and prints them: {@code 90s}, {@code 30m}, {@code 12h}, {@code 7d}, {@code forever}. */
final class TtlText {
  private static final Pattern AMOUNT = Pattern.compile("(\\d{1,18})(ms|s|m|h|d)");
  private static final String FORMS = "a number with ms, s, m, h or d (90s, 30m, 12h, 7d), or forever";

  private TtlText() {}

  /** A time to live; {@link Duration#ZERO} for {@code forever} (or 0). */
  static Duration parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("forever") || t.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = AMOUNT.matcher(t);
    if (!m.matches()) {
      throw new ShellException("invalid ttl '" + Echo.of(text) + "': " + FORMS);
    }
    long n = Long.parseLong(m.group(1));
    if (n == 0) {
      // "0" alone means forever (as the client's 0 does); "0s" reads as "keep nothing", which no
      // column group can mean.
      throw new ShellException("invalid ttl '" + Echo.of(text) + "': a time to live must be more than 0;"
          + " for no limit write ttl=forever");
    }
    Duration d;
    try {
      d = switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    } catch (ArithmeticException e) {
      throw tooLong(text, e);
    }
    if (d.compareTo(Duration.ofMillis(StoragePolicy.MAX_TTL_MS)) > 0) {
      throw tooLong(text, null);
    }
    return d;
  }

  private static ShellException tooLong(String text, Throwable cause) {
    return new ShellException("ttl '" + Echo.of(text) + "' is too long: at most "
        + format(StoragePolicy.MAX_TTL_MS) + " (or forever)", cause);
  }

  /** A time to live in milliseconds as {@link #parse} reads it: the largest unit that divides it. */
  static String format(long ms) {
    if (ms == 0) {
      return "forever";
    }
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] names = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (ms % units[i] == 0) {
        return ms / units[i] + names[i];
      }
    }
    return ms + "ms";
  }
}
