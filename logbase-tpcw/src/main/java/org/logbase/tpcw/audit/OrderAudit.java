package org.logbase.tpcw.audit;

import java.util.List;
import java.util.Map;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.Values;

/** Every order has its lines (numbered 1 to o_lines) and its card transaction for its total; nothing is orphaned. */
final class OrderAudit {
  static final String LINES = "every order has its lines";
  static final String CARD = "every order has its card transaction, for its total";
  static final String ORPHANS = "no order line or card transaction without its order";

  private OrderAudit() {}

  static void run(AuditData d, Findings f) {
    f.check(LINES);
    f.check(CARD);
    f.check(ORPHANS);
    for (Map.Entry<Long, Row> e : d.orders.entrySet()) {
      long o = e.getKey();
      Row order = e.getValue();
      if (AuditData.paperOrder(order)) {
        continue;
      }
      long expected = Values.num(order, "o_lines");
      List<Row> lines = d.orderLines.getOrDefault(o, List.of());
      boolean numbered = true;
      for (Row l : lines) {
        long n = Keys.childOf(l.key());
        numbered &= n >= 1 && n <= expected;
      }
      if (lines.size() != expected || !numbered) {
        f.problem(LINES, "order " + o + " says " + expected + " lines, has " + lines.size()
            + (numbered ? "" : " (numbers outside 1.." + expected + ")"));
      }
      Row card = d.cards.get(o);
      if (card == null) {
        f.problem(CARD, "order " + o + " has no card transaction");
      } else if (Values.num(card, "cx_xact_amt") != Values.num(order, "o_total")) {
        f.problem(CARD, "order " + o + ": total " + Values.num(order, "o_total") + ", card transaction for "
            + Values.num(card, "cx_xact_amt"));
      }
    }
    for (long o : d.orderLines.keySet()) {
      if (!d.orders.containsKey(o)) {
        f.problem(ORPHANS, "lines of order " + o + ", which does not exist");
      }
    }
    for (long o : d.cards.keySet()) {
      if (!d.orders.containsKey(o)) {
        f.problem(ORPHANS, "card transaction of order " + o + ", which does not exist");
      }
    }
  }
}
