package org.logbase.tpcw.data;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.logbase.client.Put;
import org.logbase.tpcw.schema.IndexRows.IndexRow;
import org.logbase.tpcw.schema.TpcwTable;

/** Generated rows, by table, waiting to be written as batch puts. */
public final class RowSink {
  private final Map<TpcwTable, List<Put>> rows = new EnumMap<>(TpcwTable.class);
  private int count;

  public void add(TpcwTable table, byte[] key, Map<String, byte[]> columns) {
    rows.computeIfAbsent(table, t -> new ArrayList<>()).add(Put.of(key, columns));
    count++;
  }

  public void add(IndexRow row) {
    add(row.table(), row.key(), row.columns());
  }

  public void addAll(List<IndexRow> index) {
    index.forEach(this::add);
  }

  public Map<TpcwTable, List<Put>> byTable() {
    return rows;
  }

  public int count() {
    return count;
  }
}
