package org.logbase.tpcw.web;

import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;
import org.logbase.tpcw.schema.Vocabulary;

/**
 * The paper's reduced TPC-W (section 4.4): a read-only transaction reads one item; an update
 * transaction reads the browser's shopping cart and writes one order row. Its orders have status
 * {@link Vocabulary#PAPER_ORDER} and no lines, card transaction or index rows, which the audit knows.
 * Each browser reads its own cart, made (empty) by its first update: carts hash over the tablets
 * like orders, so no one server serves every update's read.
 */
final class PaperInteractions {
  private final Catalog catalog;
  private final Customers customers;
  private final Carts carts;

  PaperInteractions(Catalog catalog, Customers customers, Carts carts) {
    this.catalog = catalog;
    this.customers = customers;
    this.carts = carts;
  }

  void read(Transaction t, Session s) {
    Db.get(t, TpcwTable.ITEM, Keys.id(catalog.randomItem(s)));
  }

  void update(Transaction t, Session s) {
    long id = s.cart();
    Row cart = id == 0 ? null : Db.get(t, TpcwTable.SHOPPING_CART, Keys.id(id), "cart");
    if (cart == null) {
      carts.ensure(t, s);
    }
    long total = Values.num(cart, "sc_sub_total", 0);
    long o = s.ids().next(TpcwTable.ORDERS);
    long now = System.currentTimeMillis();
    Db.put(t, TpcwTable.ORDERS, Keys.id(o), Values.of("o_c_id", customers.current(s), "o_date", now,
        "o_sub_total", total, "o_tax", 0, "o_total", total, "o_ship_type", "MAIL", "o_ship_date", now,
        "o_bill_addr_id", 0, "o_ship_addr_id", 0, "o_status", Vocabulary.PAPER_ORDER, "o_lines", 0));
  }
}
