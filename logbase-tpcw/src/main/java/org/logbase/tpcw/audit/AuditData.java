package org.logbase.tpcw.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.ItemRef;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;
import org.logbase.tpcw.schema.Vocabulary;

/** The base tables the checks look at, read from one snapshot, by id. */
final class AuditData {
  final Map<Long, Row> items = new TreeMap<>();
  final Map<Long, Row> authors = new HashMap<>();
  final Map<Long, Row> customers = new TreeMap<>();
  final Map<Long, Row> addresses = new HashMap<>();
  final Map<Long, Row> orders = new TreeMap<>();
  final Map<Long, List<Row>> orderLines = new TreeMap<>();
  final Map<Long, Row> cards = new TreeMap<>();
  final Map<Long, Row> carts = new TreeMap<>();
  final Map<Long, List<Row>> cartLines = new TreeMap<>();
  final Map<String, Row> sequences;

  AuditData(Snapshot s) {
    byId(s, TpcwTable.ITEM, items);
    byId(s, TpcwTable.AUTHOR, authors);
    byId(s, TpcwTable.CUSTOMER, customers);
    byId(s, TpcwTable.ADDRESS, addresses);
    byId(s, TpcwTable.ORDERS, orders);
    byId(s, TpcwTable.CC_XACTS, cards);
    byId(s, TpcwTable.SHOPPING_CART, carts);
    s.forEach(TpcwTable.ORDER_LINE, r -> orderLines.computeIfAbsent(Keys.parentOf(r.key()), k -> new ArrayList<>()).add(r));
    s.forEach(TpcwTable.SHOPPING_CART_LINE,
        r -> cartLines.computeIfAbsent(Keys.parentOf(r.key()), k -> new ArrayList<>()).add(r));
    sequences = s.rows(TpcwTable.SEQUENCES);
  }

  private static void byId(Snapshot s, TpcwTable table, Map<Long, Row> into) {
    s.forEach(table, r -> into.put(Keys.idOf(r.key()), r));
  }

  /** An order of the paper's reduced workload: one row, nothing else. */
  static boolean paperOrder(Row order) {
    return Vocabulary.PAPER_ORDER.equals(Values.text(order, "o_status"));
  }

  /** The index facts of an item, as its row and its author's say. */
  ItemRef ref(long item) {
    Row i = items.get(item);
    Row a = authors.get(Values.num(i, "i_a_id"));
    return new ItemRef(item, Values.text(i, "i_title"), Values.text(i, "i_subject"), Values.num(i, "i_pub_date"),
        Values.text(a, "a_fname"), Values.text(a, "a_lname"));
  }

  /** How many rows of a table with a sequence the load wrote. */
  long loaded(TpcwTable table) {
    return Values.num(sequences.get(table.table()), "loaded");
  }

  long next(TpcwTable table) {
    return Values.num(sequences.get(table.table()), "next");
  }
}
