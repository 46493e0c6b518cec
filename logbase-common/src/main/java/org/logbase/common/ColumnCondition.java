package org.logbase.common;

import java.util.Arrays;
import java.util.Objects;

/**
 * A scan's filter: the rows whose {@code column} holds exactly {@code value}, or with {@code prefix}
 * a value starting with it. Tablet servers evaluate it (rows that fail it are not sent); a
 * transaction evaluates it on rows merged with its own writes.
 */
public record ColumnCondition(String column, byte[] value, boolean prefix) {
  public ColumnCondition {
    Objects.requireNonNull(column, "column");
    value = value.clone();
  }

  /** Whether {@code row} has the column, with a value this condition accepts. */
  public boolean test(Row row) {
    Cell c = row.cells().get(column);
    return c != null && c.readValue((v, from, n) -> prefix
        ? n >= value.length && Arrays.equals(v, from, from + value.length, value, 0, value.length)
        : Arrays.equals(v, from, from + n, value, 0, value.length));
  }

  @Override
  public byte[] value() {
    return value.clone();
  }

  @Override
  public String toString() {
    return column + (prefix ? " starts with " : " = ") + Bytes.toStringBinary(value);
  }
}
