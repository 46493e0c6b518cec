package org.logbase.common;

import java.util.Collections;
import java.util.SortedMap;

/**
 * A row as read: its key and the newest visible value of each requested column, by column name. A
 * row a tablet server's scan returns may hold views of the scan's blocks ({@link Cell#view}),
 * readable until the scan is released; {@link #owned} copies it for keeping.
 */
public record Row(byte[] key, SortedMap<String, Cell> cells) {
  public Row {
    if (!(cells instanceof Cells)) { // Cells are immutable already
      cells = Collections.unmodifiableSortedMap(cells);
    }
  }

  /** This row if its cells own their values, else a copy whose cells do ({@link Cell#owned}). */
  public Row owned() {
    boolean owns = true;
    for (Cell c : cells.values()) {
      owns &= c.owns();
    }
    if (owns) {
      return this;
    }
    Cells.Builder b = Cells.builder(cells.size());
    cells.forEach((column, cell) -> b.addIfAbsent(column, cell.owned()));
    return new Row(key, b.build());
  }

  /** The value of {@code column}, or null if the row has none visible. */
  public byte[] value(String column) {
    Cell c = cells.get(column);
    return c == null ? null : c.value();
  }
}
