package org.logbase.dist.storagedemo;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.TableSchema;

/**
 * Values that describe themselves: each starts with {@code key|seq|kind|column|} followed by bytes
 * derived from that header alone, so a reader can tell whether any value it finds is exactly what
 * was written (byte for byte) and which write it came from.
 */
public final class CheckedValues {
  /** Table "users": group 0 "profile" (name, email), group 1 "stats" (visits, score). */
  public static final TableSchema USERS = new TableSchema("users", 1, List.of(
      new ColumnGroup(0, "profile", List.of("name", "email")),
      new ColumnGroup(1, "stats", List.of("visits", "score"))));

  /** What a write covered. */
  public enum Kind {
    /** All four columns: two column groups, committed atomically. */
    FULL(List.of("name", "email", "visits", "score")),
    /** Only "score": one column group. */
    PARTIAL(List.of("score"));

    public final List<String> columns;

    Kind(List<String> columns) {
      this.columns = columns;
    }
  }

  /** A parsed value header. */
  public record Header(String key, long seq, Kind kind, String column) {}

  private CheckedValues() {}

  public static byte[] value(String key, long seq, Kind kind, String column) {
    byte[] head = (key + "|" + seq + "|" + kind + "|" + column + "|").getBytes(StandardCharsets.UTF_8);
    SplittableRandom r = new SplittableRandom(Arrays.hashCode(head));
    byte[] v = Arrays.copyOf(head, head.length + 16 + r.nextInt(1500));
    for (int i = head.length; i < v.length; i++) {
      v[i] = (byte) r.nextInt(256);
    }
    return v;
  }

  /** The header of a value, or null if it has none. */
  public static Header parse(byte[] value) {
    String s = new String(value, 0, Math.min(value.length, 200), StandardCharsets.ISO_8859_1);
    String[] p = s.split("\\|", 5);
    if (p.length < 5) {
      return null;
    }
    try {
      return new Header(p[0], Long.parseLong(p[1]), Kind.valueOf(p[2]), p[3]);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Whether {@code value} is byte-identical to what its own header says was written. */
  public static boolean intact(byte[] value) {
    Header h = parse(value);
    return h != null && Arrays.equals(value, value(h.key(), h.seq(), h.kind(), h.column()));
  }
}
