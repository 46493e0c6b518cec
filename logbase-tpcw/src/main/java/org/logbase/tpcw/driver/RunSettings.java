package org.logbase.tpcw.driver;

/**
 * How a run goes: the mix, the number of emulated browsers (threads), how long it measures after
 * a warm-up, the mean think time between a browser's interactions (0 for a stress run), the id
 * block size, how many attempts an interaction gets, the seed and the status interval.
 */
public record RunSettings(Mix mix, int browsers, int seconds, int warmupSeconds, long thinkMs, int idBlock,
    int attempts, long seed, int statusSeconds) {
  public static final int MAX_BROWSERS = 1_000;
  public static final int MAX_SECONDS = 86_400;

  public RunSettings {
    check("browsers", browsers, 1, MAX_BROWSERS);
    check("duration (s)", seconds, 1, MAX_SECONDS);
    check("warm-up (s)", warmupSeconds, 0, MAX_SECONDS);
    check("think time (ms)", thinkMs, 0, 600_000);
    check("attempts", attempts, 1, 1_000);
    check("status interval (s)", statusSeconds, 1, 3_600);
  }

  private static void check(String what, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(what + " must be from " + min + " to " + max + ", got " + value);
    }
  }
}
