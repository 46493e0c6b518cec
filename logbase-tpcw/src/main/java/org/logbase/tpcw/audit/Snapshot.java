package org.logbase.tpcw.audit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;

/** The whole database as of one timestamp: every table read by streaming scans at that snapshot. */
final class Snapshot {
  private final LogBaseClient client;
  private final long asOf;

  Snapshot(LogBaseClient client) {
    this.client = client;
    this.asOf = client.timestamps().next();
  }

  void forEach(TpcwTable table, Consumer<Row> each) {
    try (Scanner s = client.table(table.table()).scan(ScanSpec.builder().asOf(asOf).build())) {
      for (Row r : s) {
        each.accept(r);
      }
    }
  }

  /** Every row of a table by key text. */
  Map<String, Row> rows(TpcwTable table) {
    Map<String, Row> out = new LinkedHashMap<>();
    forEach(table, r -> out.put(Keys.text(r.key()), r));
    return out;
  }
}
