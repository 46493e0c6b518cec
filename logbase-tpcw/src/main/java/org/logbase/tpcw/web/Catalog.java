package org.logbase.tpcw.web;

import java.util.ArrayList;
import java.util.List;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.ItemRef;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * Reads of the item catalogue shared by several interactions: an item with its author, the
 * promotional items (the related items of a random item, shown on the home, search and cart
 * pages), and the items listed by an index scan.
 */
final class Catalog {
  private final int items;

  Catalog(int items) {
    this.items = items;
  }

  long randomItem(Session s) {
    return s.random().between(1, items);
  }

  /** An item of the browser's last listing, or any item. */
  long nextItem(Session s) {
    List<Long> last = s.lastItems();
    return last.isEmpty() || s.random().chance(0.2) ? randomItem(s) : s.random().pick(last);
  }

  /** The item's index facts (title, subject, publication date, author's names); reads the item and its author. */
  ItemRef ref(Transaction t, long item) {
    return ref(t, Db.get(t, TpcwTable.ITEM, Keys.id(item), "list"));
  }

  /** The index facts of an item row read with its "list" group; reads its author. */
  ItemRef ref(Transaction t, Row item) {
    Row author = Db.get(t, TpcwTable.AUTHOR, Keys.id(Values.num(item, "i_a_id")), "name");
    return new ItemRef(Keys.idOf(item.key()), Values.text(item, "i_title"), Values.text(item, "i_subject"),
        Values.num(item, "i_pub_date"), Values.text(author, "a_fname"), Values.text(author, "a_lname"));
  }

  /** Product detail: every column of the item, and its author's name. */
  Row detail(Transaction t, long item) {
    Row row = Db.get(t, TpcwTable.ITEM, Keys.id(item));
    Db.get(t, TpcwTable.AUTHOR, Keys.id(Values.num(row, "i_a_id")), "name");
    return row;
  }

  /** Promotional processing: a random item's five related items, their thumbnails. */
  void promotions(Transaction t, Session s) {
    Row row = Db.get(t, TpcwTable.ITEM, Keys.id(randomItem(s)), "list");
    for (String related : Values.text(row, "i_related").split(",")) {
      Values.text(t.get(TpcwTable.ITEM.table(), Keys.id(Long.parseLong(related)), List.of("i_thumbnail")),
          "i_thumbnail");
    }
  }

  /** A listing from an index table (up to 50 rows from a key prefix); the browser remembers the items. */
  List<Long> list(Transaction t, Session s, TpcwTable index, byte[] prefix) {
    List<Long> ids = new ArrayList<>();
    for (Row r : Db.prefix(t, index, prefix, 50)) {
      ids.add(Values.num(r, "i_id"));
    }
    s.stageLastItems(ids);
    return ids;
  }
}
