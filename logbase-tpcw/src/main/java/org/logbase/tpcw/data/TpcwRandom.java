package org.logbase.tpcw.data;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The random values TPC-W's population and browsers draw: uniform numbers, NURand, random strings
 * of letters (a-strings) and of digits (n-strings). Not thread-safe: one per thread, or one per
 * generated entity (seeded by its id, so that a parallel load is reproducible).
 */
public final class TpcwRandom {
  private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private final SplittableRandom random;

  public TpcwRandom(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** The random source of one entity: the same seed, kind and id give the same values. */
  public static TpcwRandom of(long seed, int kind, long id) {
    return new TpcwRandom(seed * 0x9E3779B97F4A7C15L + kind * 0xC2B2AE3D27D4EB4FL + id);
  }

  /** Uniform in [lo, hi]. */
  public long between(long lo, long hi) {
    return lo + random.nextLong(hi - lo + 1);
  }

  public int between(int lo, int hi) {
    return lo + random.nextInt(hi - lo + 1);
  }

  /** Uniform in [0, 1). */
  public double unit() {
    return random.nextDouble();
  }

  /** True with probability p. */
  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  public <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  /** Non-uniform random over [x, y] with the constant A: (between(0, A) | between(x, y)) mod (y - x + 1) + x. */
  public long nuRand(long a, long x, long y) {
    return ((between(0, a) | between(x, y)) % (y - x + 1)) + x;
  }

  /** A random string of letters and digits, its length uniform in [min, max]. */
  public String aString(int min, int max) {
    return chars(ALPHANUMERIC, between(min, max));
  }

  /** A random string of digits, its length uniform in [min, max]. */
  public String nString(int min, int max) {
    return chars("0123456789", between(min, max));
  }

  /** Exponential with this mean, cut at ten times the mean (TPC-W's think time). */
  public long exponential(long mean) {
    return mean <= 0 ? 0 : (long) Math.min(-Math.log(1 - random.nextDouble()) * mean, 10.0 * mean);
  }

  private String chars(String alphabet, int n) {
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = alphabet.charAt(random.nextInt(alphabet.length()));
    }
    return new String(c);
  }
}
