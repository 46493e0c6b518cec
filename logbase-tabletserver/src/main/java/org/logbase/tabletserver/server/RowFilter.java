package org.logbase.tabletserver.server;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.logbase.common.Cell;
import org.logbase.common.ColumnCondition;
import org.logbase.common.Row;
import org.logbase.common.schema.TableSchema;
import org.logbase.rpc.ValueFilter;

/**
 * A scan's filter on this server: which rows pass, what must be read to tell (its column, asked for
 * or not), and the row as asked for once it passed.
 */
final class RowFilter {
  /** No filter: every row passes as read. */
  static final RowFilter ALL = new RowFilter(null);

  private final ColumnCondition condition;

  private RowFilter(ColumnCondition condition) {
    this.condition = condition;
  }

  /** @throws org.logbase.common.ColumnNotInSchemaException if the table has no such column */
  static RowFilter of(TableSchema schema, ValueFilter f) {
    schema.groupOf(f.getColumn());
    return new RowFilter(new ColumnCondition(f.getColumn(), f.getValue().toByteArray(), f.getPrefix()));
  }

  /** The columns to read for a scan asking for {@code asked} (null: all). */
  List<String> columnsToRead(List<String> asked) {
    if (condition == null || asked == null || asked.contains(condition.column())) {
      return asked;
    }
    List<String> read = new ArrayList<>(asked);
    read.add(condition.column());
    return read;
  }

  /**
   * The row as the scan returns it (the columns {@code asked} for, null: all), or null when it fails
   * the filter or has none of those columns once the filter's own is left out.
   */
  Row pass(Row row, List<String> asked) {
    if (condition == null) {
      return row;
    }
    if (!condition.test(row)) {
      return null;
    }
    if (asked == null || asked.contains(condition.column())) {
      return row;
    }
    TreeMap<String, Cell> cells = new TreeMap<>(row.cells());
    cells.remove(condition.column());
    return cells.isEmpty() ? null : new Row(row.key(), cells);
  }
}
