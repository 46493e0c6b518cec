package org.logbase.tpcw.web;

import java.util.List;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.IndexRows;
import org.logbase.tpcw.schema.ItemRef;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;
import org.logbase.tpcw.schema.Vocabulary;

/** Shopping Cart and Buy Confirm: the interactions that change carts, stock and orders. */
final class OrderInteractions {
  /** Stock below this after an order is refilled by {@link #RESTOCK} (TPC-W's rule). */
  static final long LOW_STOCK = 10;
  static final long RESTOCK = 21;

  private final Catalog catalog;
  private final Customers customers;
  private final Carts carts;

  OrderInteractions(Catalog catalog, Customers customers, Carts carts) {
    this.catalog = catalog;
    this.customers = customers;
    this.carts = carts;
  }

  /**
   * Adds an item to the browser's cart (one of its last listing, mostly), or, one time in five and
   * when the cart is full, sets a line's quantity (0 removes it); then the promotional items.
   */
  void shoppingCart(Transaction t, Session s) {
    long cart = carts.ensure(t, s);
    List<Row> lines = carts.lines(t, cart);
    boolean update = !lines.isEmpty() && (lines.size() >= Carts.MAX_LINES || s.random().chance(0.2));
    if (update) {
      carts.update(t, cart, s.random().pick(lines), s.random().between(0, 5));
    } else {
      carts.add(t, cart, catalog.nextItem(s));
    }
    catalog.promotions(t, s);
  }

  /**
   * Places an order for the cart's lines: for each line the item's stock goes down (refilled by
   * 21 when it would fall below 10) and its sold count up, an order line and a best-sellers row are
   * written; then the order, its card transaction and the customer's order index row; the cart is
   * emptied. All in one transaction.
   */
  void buyConfirm(Transaction t, Session s) {
    long now = System.currentTimeMillis();
    long c = customers.current(s);
    long cart = carts.ensure(t, s);
    List<Row> lines = carts.nonEmpty(t, s, cart);
    Row customer = Db.get(t, TpcwTable.CUSTOMER, Keys.id(c), "login");
    long discount = Values.num(customer, "c_discount");
    long o = s.ids().next(TpcwTable.ORDERS);
    long subTotal = 0;
    long n = 0;
    for (Row line : lines) {
      n++;
      long item = Keys.childOf(line.key());
      long qty = Values.num(line, "scl_qty");
      Row stock = Db.get(t, TpcwTable.ITEM, Keys.id(item), "list", "stock");
      ItemRef ref = catalog.ref(t, stock);
      long left = Values.num(stock, "i_stock") - qty;
      long restocks = Values.num(stock, "i_restocks");
      if (left < LOW_STOCK) {
        left += RESTOCK;
        restocks++;
      }
      Db.put(t, TpcwTable.ITEM, Keys.id(item), Values.of("i_stock", left,
          "i_sold", Values.num(stock, "i_sold") + qty, "i_restocks", restocks));
      subTotal += qty * Values.num(stock, "i_cost") * (100 - discount) / 100;
      Db.put(t, TpcwTable.ORDER_LINE, Keys.child(o, n), Values.of("ol_i_id", item, "ol_qty", qty,
          "ol_discount", discount, "ol_comments", s.random().aString(20, 100)));
      Db.put(t, IndexRows.sale(ref, o, n, qty));
    }
    long tax = subTotal * 825 / 10_000;
    long total = subTotal + tax + 300 + 100 * n;
    long address = Values.num(customer, "c_addr_id");
    Db.put(t, TpcwTable.ORDERS, Keys.id(o), Values.of("o_c_id", c, "o_date", now, "o_sub_total", subTotal,
        "o_tax", tax, "o_total", total, "o_ship_type", s.random().pick(Vocabulary.SHIP_TYPES),
        "o_ship_date", now + s.random().between(0, 7) * 86_400_000L, "o_bill_addr_id", address,
        "o_ship_addr_id", address, "o_status", "PENDING", "o_lines", n));
    Db.put(t, TpcwTable.CC_XACTS, Keys.id(o), Values.of("cx_type", s.random().pick(Vocabulary.CARD_TYPES),
        "cx_num", s.random().nString(16, 16), "cx_name", Values.text(customer, "c_fname") + " "
            + Values.text(customer, "c_lname"), "cx_expire", now + s.random().between(10, 730) * 86_400_000L,
        "cx_auth_id", s.random().aString(15, 15), "cx_xact_amt", total, "cx_xact_date", now,
        "cx_co_id", Values.num(Db.get(t, TpcwTable.ADDRESS, Keys.id(address), "addr"), "addr_co_id")));
    Db.put(t, IndexRows.customerOrder(c, o));
    carts.clear(t, cart, lines);
  }
}
