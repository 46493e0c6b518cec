package org.logbase.tpcw.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.IndexRows;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.Sequences;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * Recent sales of a subject, from {@link TpcwTable#ITEM_SALES}: the quantities sold of each item
 * of the subject in the most recent orders (TPC-W's best sellers look at the last 3,333). Recent
 * means the ids below the order sequence's next id: ids are taken in blocks, so a few of the
 * newest orders may not be placed yet.
 */
final class Sales {
  static final int RECENT_ORDERS = 3_333;

  private Sales() {}

  /** Items of the subject by quantity sold in the recent orders, best first, at most {@code limit}. */
  static List<Long> best(Transaction t, String subject, int limit) {
    Row seq = Db.get(t, TpcwTable.SEQUENCES, Sequences.of(TpcwTable.ORDERS), "seq");
    long from = Math.max(1, Values.num(seq, "next") - RECENT_ORDERS);
    byte[] start = IndexRows.saleKey(subject, from, 0);
    byte[] end = Bytes.prefixEnd(Keys.composite(subject, ""));
    Map<Long, Long> sold = new HashMap<>();
    for (Row r : Db.range(t, TpcwTable.ITEM_SALES, start, end)) {
      sold.merge(Values.num(r, "i_id"), Values.num(r, "qty"), Long::sum);
    }
    List<Map.Entry<Long, Long>> ranked = new ArrayList<>(sold.entrySet());
    ranked.sort(Map.Entry.<Long, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < Math.min(limit, ranked.size()); i++) {
      out.add(ranked.get(i).getKey());
    }
    return out;
  }
}
