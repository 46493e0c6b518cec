package org.logbase.tpcw.audit;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.logbase.common.Cell;
import org.logbase.common.Row;
import org.logbase.tpcw.data.Population;
import org.logbase.tpcw.schema.IndexRows;
import org.logbase.tpcw.schema.IndexRows.IndexRow;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * Every index table holds exactly the rows its base tables imply ({@link IndexRows}, computed here
 * from the items, authors, customers, orders and order lines of the snapshot): none missing, none
 * extra, none with other values.
 */
final class IndexAudit {
  static final List<TpcwTable> INDEXES = List.of(TpcwTable.ITEM_BY_TITLE, TpcwTable.ITEM_BY_AUTHOR,
      TpcwTable.ITEM_BY_SUBJECT, TpcwTable.NEW_PRODUCTS, TpcwTable.ITEM_SALES, TpcwTable.CUSTOMER_BY_UNAME,
      TpcwTable.CUSTOMER_ORDERS);

  private IndexAudit() {}

  static String check(TpcwTable index) {
    return "index " + index.table() + " agrees with its base tables";
  }

  static void run(AuditData d, Snapshot s, Findings f) {
    Map<TpcwTable, Map<String, Map<String, String>>> expected = new EnumMap<>(TpcwTable.class);
    for (TpcwTable t : INDEXES) {
      expected.put(t, new HashMap<>());
      f.check(check(t));
    }
    for (long item : d.items.keySet()) {
      IndexRows.forItem(d.ref(item)).forEach(r -> expect(expected, r));
    }
    for (Map.Entry<Long, Row> c : d.customers.entrySet()) {
      expect(expected, IndexRows.customerName(Population.userName(c.getKey()), c.getKey()));
    }
    for (Map.Entry<Long, Row> o : d.orders.entrySet()) {
      if (AuditData.paperOrder(o.getValue())) {
        continue;
      }
      expect(expected, IndexRows.customerOrder(Values.num(o.getValue(), "o_c_id"), o.getKey()));
      for (Row line : d.orderLines.getOrDefault(o.getKey(), List.of())) {
        long item = Values.num(line, "ol_i_id");
        if (d.items.containsKey(item)) {
          expect(expected, IndexRows.sale(d.ref(item), o.getKey(), Keys.childOf(line.key()), Values.num(line, "ol_qty")));
        }
      }
    }
    for (TpcwTable t : INDEXES) {
      Map<String, Map<String, String>> want = expected.get(t);
      s.forEach(t, r -> {
        String key = Keys.text(r.key());
        Map<String, String> w = want.remove(key);
        if (w == null) {
          f.problem(check(t), "extra row " + key);
        } else if (!w.equals(text(r))) {
          f.problem(check(t), "row " + key + " holds " + text(r) + ", the base tables say " + w);
        }
      });
      for (String key : new TreeMap<>(want).keySet()) {
        f.problem(check(t), "missing row " + key);
      }
    }
  }

  private static void expect(Map<TpcwTable, Map<String, Map<String, String>>> expected, IndexRow r) {
    Map<String, String> cols = new TreeMap<>();
    r.columns().forEach((c, v) -> cols.put(c, Keys.text(v)));
    expected.get(r.table()).put(Keys.text(r.key()), cols);
  }

  private static Map<String, String> text(Row r) {
    Map<String, String> cols = new TreeMap<>();
    for (Map.Entry<String, Cell> e : r.cells().entrySet()) {
      cols.put(e.getKey(), Keys.text(e.getValue().value()));
    }
    return cols;
  }
}
