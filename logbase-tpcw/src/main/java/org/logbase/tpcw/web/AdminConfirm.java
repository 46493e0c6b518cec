package org.logbase.tpcw.web;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.IndexRows;
import org.logbase.tpcw.schema.IndexRows.IndexRow;
import org.logbase.tpcw.schema.ItemRef;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * Admin Confirm: an item gets a new cost, image and thumbnail, today's publication date (so its
 * new-products index row moves, in the same transaction), and as related items the five best
 * sellers of its subject in the recent orders (other items at random where there are fewer).
 */
final class AdminConfirm {
  private final Catalog catalog;

  AdminConfirm(Catalog catalog) {
    this.catalog = catalog;
  }

  void run(Transaction t, Session s) {
    long item = catalog.nextItem(s);
    Row row = Db.get(t, TpcwTable.ITEM, Keys.id(item), "list");
    ItemRef before = catalog.ref(t, row);
    long today = System.currentTimeMillis() / 86_400_000L;
    ItemRef after = new ItemRef(item, before.title(), before.subject(), today, before.authorFirst(),
        before.authorLast());
    Set<Long> related = new LinkedHashSet<>(Sales.best(t, before.subject(), 6));
    related.remove(item);
    while (related.size() < 5) {
      long other = catalog.randomItem(s);
      if (other != item) {
        related.add(other);
      }
    }
    List<Long> five = related.stream().limit(5).toList();
    long srp = Values.num(row, "i_srp");
    Db.put(t, TpcwTable.ITEM, Keys.id(item), Values.of("i_cost", srp * s.random().between(50, 100) / 100,
        "i_thumbnail", "img" + item % 100 + "/thumb_" + item + "_" + today + ".gif",
        "i_pub_date", today, "i_related", String.join(",", five.stream().map(String::valueOf).toList()),
        "i_image", "img" + item % 100 + "/image_" + item + "_" + today + ".gif"));
    IndexRow old = IndexRows.newProduct(before);
    IndexRow moved = IndexRows.newProduct(after);
    if (!Arrays.equals(old.key(), moved.key())) {
      Db.delete(t, TpcwTable.NEW_PRODUCTS, old.key());
    }
    Db.put(t, moved);
  }
}
