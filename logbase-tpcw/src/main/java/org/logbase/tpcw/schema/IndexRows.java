package org.logbase.tpcw.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rows of the index tables, in one place: the load writes them, the interactions maintain them
 * in the transactions that change what they index, and the audit recomputes them from the base
 * tables and compares.
 */
public final class IndexRows {
  /** One index row: table, key, columns. */
  public record IndexRow(TpcwTable table, byte[] key, Map<String, byte[]> columns) {}

  private IndexRows() {}

  /** The rows that index an item: one per title word, its author's last name, its subject, and new products. */
  public static List<IndexRow> forItem(ItemRef item) {
    List<IndexRow> rows = new ArrayList<>();
    String id = String.format("%010d", item.id());
    for (String word : item.titleWords()) {
      rows.add(new IndexRow(TpcwTable.ITEM_BY_TITLE, Keys.composite(word, item.title(), id), ref(item)));
    }
    rows.add(new IndexRow(TpcwTable.ITEM_BY_AUTHOR, Keys.composite(item.authorLast(), item.title(), id), ref(item)));
    rows.add(new IndexRow(TpcwTable.ITEM_BY_SUBJECT, Keys.composite(item.subject(), item.title(), id), ref(item)));
    rows.add(newProduct(item));
    return rows;
  }

  /** The new-products row of an item; it moves when the item's publication date changes. */
  public static IndexRow newProduct(ItemRef item) {
    Map<String, byte[]> cols = ref(item);
    cols.put("i_pub_date", Keys.utf8(Long.toString(item.pubDate())));
    return new IndexRow(TpcwTable.NEW_PRODUCTS,
        Keys.composite(item.subject(), Keys.descending(item.pubDate()), item.title(), String.format("%010d", item.id())),
        cols);
  }

  /** The best-sellers row of one order line. */
  public static IndexRow sale(ItemRef item, long orderId, long line, long qty) {
    return new IndexRow(TpcwTable.ITEM_SALES, saleKey(item.subject(), orderId, line),
        Values.of("i_id", item.id(), "qty", qty, "i_title", item.title(), "a_fname", item.authorFirst(),
            "a_lname", item.authorLast()));
  }

  public static byte[] saleKey(String subject, long orderId, long line) {
    return Keys.composite(subject, String.format("%010d", orderId), String.format("%010d", line));
  }

  /** The row that finds a customer by user name. */
  public static IndexRow customerName(String uname, long customerId) {
    return new IndexRow(TpcwTable.CUSTOMER_BY_UNAME, Keys.utf8(Keys.hashed(uname)), Values.of("c_id", customerId));
  }

  /** The row that lists an order under its customer, newest first. */
  public static IndexRow customerOrder(long customerId, long orderId) {
    return new IndexRow(TpcwTable.CUSTOMER_ORDERS, Keys.composite(Keys.idText(customerId), Keys.descending(orderId)),
        Values.of("o_id", orderId));
  }

  /** The key prefix of a customer's orders. */
  public static byte[] customerOrders(long customerId) {
    return Keys.utf8(Keys.idText(customerId) + Keys.SEP);
  }

  private static Map<String, byte[]> ref(ItemRef item) {
    return Values.of("i_id", item.id(), "i_title", item.title(), "a_fname", item.authorFirst(),
        "a_lname", item.authorLast());
  }
}
