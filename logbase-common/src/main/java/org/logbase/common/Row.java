package org.logbase.common;

import java.util.Collections;
import java.util.SortedMap;

/** A row as read: its key and the newest visible value of each requested column, by column name. */
public record Row(byte[] key, SortedMap<String, Cell> cells) {
  public Row {
    if (!(cells instanceof Cells)) { // Cells are immutable already
      cells = Collections.unmodifiableSortedMap(cells);
    }
  }

  /** The value of {@code column}, or null if the row has none visible. */
  public byte[] value(String column) {
    Cell c = cells.get(column);
    return c == null ? null : c.value();
  }
}
