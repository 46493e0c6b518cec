package org.logbase.common;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/** Row keys are byte strings ordered unsigned-lexicographically; these helpers keep that rule in one place. */
public final class Bytes {
  /** Unsigned lexicographic order; {@code null} is not a key. */
  public static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

  private Bytes() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Printable ASCII as is, anything else as \xNN: readable in logs and shells, unambiguous. */
  public static String toStringBinary(byte[] b) {
    if (b == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder(b.length);
    for (byte x : b) {
      int c = x & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.toString();
  }

  /** Whether {@code key} lies in [start, end); null bounds are open. */
  public static boolean inRange(byte[] key, byte[] startInclusive, byte[] endExclusive) {
    return (startInclusive == null || compare(key, startInclusive) >= 0)
        && (endExclusive == null || compare(key, endExclusive) < 0);
  }

  /**
   * The end (exclusive) of the keys that start with {@code prefix}: the prefix with its last byte
   * below 0xFF incremented and what follows it dropped; empty (unbounded) if there is none.
   */
  public static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if ((prefix[i] & 0xFF) != 0xFF) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return new byte[0];
  }
}
