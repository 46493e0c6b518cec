package org.logbase.tpcw.audit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * Stock and counters agree with the orders placed: each item's sold count is the quantity of it in
 * the orders placed since the load; its stock is its initial stock less that, plus 21 for each
 * restock; every sequence is past the largest id of its table; every customer's address exists.
 */
final class StockAudit {
  static final String SOLD = "items' sold counts match the orders placed";
  static final String STOCK = "stock = initial stock - sold + 21 x restocks";
  static final String SEQUENCES = "sequences are past every id";
  static final String ADDRESSES = "every customer's address exists";

  private StockAudit() {}

  static void run(AuditData d, Findings f) {
    f.check(SOLD);
    f.check(STOCK);
    f.check(SEQUENCES);
    f.check(ADDRESSES);
    long loadedOrders = d.loaded(TpcwTable.ORDERS);
    Map<Long, Long> ordered = new HashMap<>();
    for (Map.Entry<Long, Row> o : d.orders.entrySet()) {
      if (o.getKey() > loadedOrders && !AuditData.paperOrder(o.getValue())) {
        for (Row line : d.orderLines.getOrDefault(o.getKey(), List.of())) {
          ordered.merge(Values.num(line, "ol_i_id"), Values.num(line, "ol_qty"), Long::sum);
        }
      }
    }
    for (Map.Entry<Long, Row> e : d.items.entrySet()) {
      Row item = e.getValue();
      long sold = Values.num(item, "i_sold");
      long want = ordered.getOrDefault(e.getKey(), 0L);
      if (sold != want) {
        f.problem(SOLD, "item " + e.getKey() + " sold " + sold + ", orders since the load have " + want);
      }
      long stock = Values.num(item, "i_stock");
      long expected = Values.num(item, "i_stock0") - sold + 21 * Values.num(item, "i_restocks");
      if (stock != expected) {
        f.problem(STOCK, "item " + e.getKey() + " has stock " + stock + ", its counters say " + expected);
      }
    }
    sequence(f, d, TpcwTable.ORDERS, d.orders);
    sequence(f, d, TpcwTable.CUSTOMER, d.customers);
    sequence(f, d, TpcwTable.ADDRESS, d.addresses);
    sequence(f, d, TpcwTable.SHOPPING_CART, d.carts);
    for (Map.Entry<Long, Row> c : d.customers.entrySet()) {
      long a = Values.num(c.getValue(), "c_addr_id");
      if (!d.addresses.containsKey(a)) {
        f.problem(ADDRESSES, "customer " + c.getKey() + " lives at address " + a + ", which does not exist");
      }
    }
  }

  private static void sequence(Findings f, AuditData d, TpcwTable table, Map<Long, Row> rows) {
    long next = d.next(table);
    long max = rows.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    if (max >= next) {
      f.problem(SEQUENCES, "the sequence of " + table.table() + " is at " + next + ", its largest id is " + max
          + " (duplicate ids are likely)");
    }
  }
}
