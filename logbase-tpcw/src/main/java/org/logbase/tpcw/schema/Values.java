package org.logbase.tpcw.schema;

import java.util.LinkedHashMap;
import java.util.Map;
import org.logbase.common.Row;

/**
 * Column values are UTF-8 text (numbers in decimal, money in cents), so that every row reads
 * plainly in the shell. Builds the column maps a put takes and reads columns back.
 */
public final class Values {
  private Values() {}

  /** Columns from alternating names and values (String, or a number written in decimal). */
  public static Map<String, byte[]> of(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values come in pairs");
    }
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put((String) namesAndValues[i], Keys.utf8(String.valueOf(namesAndValues[i + 1])));
    }
    return m;
  }

  /** A column as text; a missing row or column is an {@link IllegalStateException} naming it. */
  public static String text(Row row, String column) {
    if (row == null) {
      throw new IllegalStateException("row missing (reading " + column + ")");
    }
    byte[] v = row.value(column);
    if (v == null) {
      throw new IllegalStateException("row " + Keys.text(row.key()) + " has no " + column);
    }
    return Keys.text(v);
  }

  /** A numeric column. */
  public static long num(Row row, String column) {
    return Long.parseLong(text(row, column));
  }

  /** A numeric column, or {@code otherwise} where the row or column is missing. */
  public static long num(Row row, String column, long otherwise) {
    byte[] v = row == null ? null : row.value(column);
    return v == null ? otherwise : Long.parseLong(Keys.text(v));
  }
}
