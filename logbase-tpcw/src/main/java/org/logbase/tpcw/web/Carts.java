package org.logbase.tpcw.web;

import java.util.List;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.schema.CartTotals;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/**
 * A browser's shopping cart: the cart row keeps the sub-total and the number of items of its lines
 * (one line per item: quantity, and the item's cost, price, title and binding when it was added),
 * and every change to the lines writes the cart row in the same transaction.
 */
final class Carts {
  /** A cart holds at most this many lines; the shopping cart interaction updates quantities instead. */
  static final int MAX_LINES = 20;

  private final Catalog catalog;

  Carts(Catalog catalog) {
    this.catalog = catalog;
  }

  /** The browser's cart id; a new cart (empty row written) if it has none or it is gone. */
  long ensure(Transaction t, Session s) {
    long cart = s.cart();
    if (cart != 0 && Db.get(t, TpcwTable.SHOPPING_CART, Keys.id(cart), "cart") != null) {
      return cart;
    }
    cart = s.ids().next(TpcwTable.SHOPPING_CART);
    s.stageCart(cart);
    writeTotals(t, cart, List.of());
    return cart;
  }

  List<Row> lines(Transaction t, long cart) {
    return Db.prefix(t, TpcwTable.SHOPPING_CART_LINE, Keys.children(cart), 0);
  }

  /** Adds one of an item (a new line, or one more on its line); returns the cart's lines after. */
  List<Row> add(Transaction t, long cart, long item) {
    byte[] key = Keys.child(cart, item);
    Row line = t.get(TpcwTable.SHOPPING_CART_LINE.table(), key, List.of("scl_qty"));
    if (line != null) {
      Db.put(t, TpcwTable.SHOPPING_CART_LINE, key, Values.of("scl_qty", Values.num(line, "scl_qty") + 1));
    } else {
      Row i = t.get(TpcwTable.ITEM.table(), Keys.id(item), List.of("i_title", "i_cost", "i_srp", "i_backing"));
      Db.put(t, TpcwTable.SHOPPING_CART_LINE, key, Values.of("scl_qty", 1, "scl_cost", Values.num(i, "i_cost"),
          "scl_srp", Values.num(i, "i_srp"), "scl_title", Values.text(i, "i_title"),
          "scl_backing", Values.text(i, "i_backing")));
    }
    List<Row> lines = lines(t, cart);
    writeTotals(t, cart, lines);
    return lines;
  }

  /** Sets a line's quantity (0 removes it); returns the cart's lines after. */
  List<Row> update(Transaction t, long cart, Row line, long qty) {
    if (qty == 0) {
      Db.delete(t, TpcwTable.SHOPPING_CART_LINE, line.key());
    } else {
      Db.put(t, TpcwTable.SHOPPING_CART_LINE, line.key(), Values.of("scl_qty", qty));
    }
    List<Row> lines = lines(t, cart);
    writeTotals(t, cart, lines);
    return lines;
  }

  /** Empties the cart (after an order): its lines deleted, its totals zero. */
  void clear(Transaction t, long cart, List<Row> lines) {
    for (Row l : lines) {
      Db.delete(t, TpcwTable.SHOPPING_CART_LINE, l.key());
    }
    writeTotals(t, cart, List.of());
  }

  /** The cart's lines, one random item added first if it has none (an order needs something to buy). */
  List<Row> nonEmpty(Transaction t, Session s, long cart) {
    List<Row> lines = lines(t, cart);
    return lines.isEmpty() ? add(t, cart, catalog.randomItem(s)) : lines;
  }

  private static void writeTotals(Transaction t, long cart, List<Row> lines) {
    Db.put(t, TpcwTable.SHOPPING_CART, Keys.id(cart), CartTotals.of(lines).columns(System.currentTimeMillis()));
  }
}
