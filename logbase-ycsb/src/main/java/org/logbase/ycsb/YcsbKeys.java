package org.logbase.ycsb;

import java.nio.charset.StandardCharsets;

/** Split keys over YCSB's key space ("user" followed by decimal digits of a hashed number). */
final class YcsbKeys {
  private YcsbKeys() {}

  /** Split keys for {@code tablets} tablets of roughly equal share of hashed YCSB keys. */
  static byte[][] splits(int tablets) {
    if (tablets < 1 || tablets > 90) {
      throw new IllegalArgumentException("logbase.tablets must be between 1 and 90: " + tablets);
    }
    // Hashed keys start with a uniform-ish first digit 1-9 after "user"; split on two-digit prefixes.
    byte[][] out = new byte[tablets - 1][];
    for (int i = 1; i < tablets; i++) {
      int prefix = 10 + (int) ((long) i * 90 / tablets);
      out[i - 1] = ("user" + prefix).getBytes(StandardCharsets.UTF_8);
    }
    return out;
  }
}
