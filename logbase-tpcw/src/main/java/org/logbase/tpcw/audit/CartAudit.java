package org.logbase.tpcw.audit;

import java.util.List;
import java.util.Map;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.CartTotals;
import org.logbase.tpcw.schema.Values;

/** Every cart's sub-total and item count match its lines; no line without its cart. */
final class CartAudit {
  static final String TOTALS = "cart totals match their lines";

  private CartAudit() {}

  static void run(AuditData d, Findings f) {
    f.check(TOTALS);
    for (Map.Entry<Long, Row> e : d.carts.entrySet()) {
      CartTotals lines = CartTotals.of(d.cartLines.getOrDefault(e.getKey(), List.of()));
      long subTotal = Values.num(e.getValue(), "sc_sub_total");
      long items = Values.num(e.getValue(), "sc_items");
      if (lines.subTotal() != subTotal || lines.items() != items) {
        f.problem(TOTALS, "cart " + e.getKey() + " says " + items + " items for " + subTotal + ", its lines "
            + lines.items() + " for " + lines.subTotal());
      }
    }
    for (long cart : d.cartLines.keySet()) {
      if (!d.carts.containsKey(cart)) {
        f.problem(TOTALS, "lines of cart " + cart + ", which does not exist");
      }
    }
  }
}
