package org.logbase.tpcw.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.logbase.client.ScanSpec;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.IndexRows.IndexRow;
import org.logbase.tpcw.schema.TpcwTable;

/** Reads and writes of TPC-W tables inside a transaction, by table and column group. */
final class Db {
  private Db() {}

  /** A row's columns of the named groups (none named: every column); null if there is no row. */
  static Row get(Transaction t, TpcwTable table, byte[] key, String... groups) {
    List<String> columns = new ArrayList<>();
    for (String g : groups) {
      columns.addAll(table.group(g));
    }
    return t.get(table.table(), key, columns);
  }

  /** Up to {@code limit} rows whose keys start with {@code prefix}, in key order. */
  static List<Row> prefix(Transaction t, TpcwTable table, byte[] prefix, int limit) {
    return t.scan(table.table(), ScanSpec.builder().keyPrefix(prefix).limit(limit).build());
  }

  /** The rows with keys in [start, end). */
  static List<Row> range(Transaction t, TpcwTable table, byte[] start, byte[] end) {
    return t.scan(table.table(), ScanSpec.builder().start(start).end(end).build());
  }

  static void put(Transaction t, TpcwTable table, byte[] key, Map<String, byte[]> columns) {
    t.put(table.table(), key, columns);
  }

  static void put(Transaction t, IndexRow row) {
    t.put(row.table().table(), row.key(), row.columns());
  }

  static void delete(Transaction t, TpcwTable table, byte[] key) {
    t.delete(table.table(), key);
  }
}
