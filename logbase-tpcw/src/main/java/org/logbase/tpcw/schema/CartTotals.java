package org.logbase.tpcw.schema;

import java.util.List;
import java.util.Map;
import org.logbase.common.Row;

/** What a shopping cart row says of its lines: their sub-total (quantity times cost) and number of items. */
public record CartTotals(long subTotal, long items) {
  public static CartTotals of(List<Row> lines) {
    long subTotal = 0;
    long items = 0;
    for (Row l : lines) {
      long qty = Values.num(l, "scl_qty");
      subTotal += qty * Values.num(l, "scl_cost");
      items += qty;
    }
    return new CartTotals(subTotal, items);
  }

  /** The cart row's columns with these totals, changed at {@code timeMs}. */
  public Map<String, byte[]> columns(long timeMs) {
    return Values.of("sc_time", timeMs, "sc_sub_total", subTotal, "sc_items", items);
  }
}
