package org.logbase.tpcw.web;

import java.util.List;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.data.Population;
import org.logbase.tpcw.data.Scale;
import org.logbase.tpcw.schema.IndexRows;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/** Customer Registration, Buy Request, Order Inquiry and Order Display. */
final class CustomerInteractions {
  /** Share of registrations by returning customers (the rest register as new customers at the next buy request). */
  static final double RETURNING = 0.8;

  private final Customers customers;
  private final Carts carts;

  CustomerInteractions(Customers customers, Carts carts) {
    this.customers = customers;
    this.carts = carts;
  }

  /** A returning customer signs in; a new one only fills in the form (written at the buy request). */
  void customerRegistration(Transaction t, Session s) {
    if (s.random().chance(RETURNING)) {
      long c = customers.random(s);
      customers.signIn(t, c);
      s.stageCustomer(c);
    } else {
      s.stageCustomer(0);
    }
  }

  /**
   * A new customer is written (customer, address, name index); a returning one's login is renewed.
   * Shows the customer's address and the cart (one item put in an empty cart).
   */
  void buyRequest(Transaction t, Session s) {
    long now = System.currentTimeMillis();
    long c = s.customer();
    long address;
    if (c == 0) {
      c = s.ids().next(TpcwTable.CUSTOMER);
      address = s.ids().next(TpcwTable.ADDRESS);
      Db.put(t, TpcwTable.ADDRESS, Keys.id(address), Population.address(s.random(), Scale.COUNTRIES));
      Db.put(t, TpcwTable.CUSTOMER, Keys.id(c), Population.customer(s.random(), c, address, now));
      Db.put(t, IndexRows.customerName(Population.userName(c), c));
      s.stageCustomer(c);
    } else {
      Row login = customers.signIn(t, c);
      Row session = Db.get(t, TpcwTable.CUSTOMER, Keys.id(c), "session");
      Db.put(t, TpcwTable.CUSTOMER, Keys.id(c), Values.of("c_login", now, "c_expiration", now + 7_200_000,
          "c_last_login", Values.num(session, "c_login")));
      address = Values.num(login, "c_addr_id");
      Row a = Db.get(t, TpcwTable.ADDRESS, Keys.id(address), "addr");
      Db.get(t, TpcwTable.COUNTRY, Keys.id(Values.num(a, "addr_co_id")), "country");
    }
    carts.nonEmpty(t, s, carts.ensure(t, s));
  }

  /** The order inquiry page: the customer's user name is looked up. */
  void orderInquiry(Transaction t, Session s) {
    t.get(TpcwTable.CUSTOMER_BY_UNAME.table(), Keys.utf8(Keys.hashed(Population.userName(customers.current(s)))),
        List.of("c_id"));
  }

  /** The customer's last order: the order, its lines with their items, its card transaction, its addresses. */
  void orderDisplay(Transaction t, Session s) {
    long c = customers.current(s);
    customers.signIn(t, c);
    List<Row> last = Db.prefix(t, TpcwTable.CUSTOMER_ORDERS, IndexRows.customerOrders(c), 1);
    if (last.isEmpty()) {
      return;
    }
    long o = Values.num(last.get(0), "o_id");
    Row order = Db.get(t, TpcwTable.ORDERS, Keys.id(o), "order");
    for (Row line : Db.prefix(t, TpcwTable.ORDER_LINE, Keys.children(o), 0)) {
      t.get(TpcwTable.ITEM.table(), Keys.id(Values.num(line, "ol_i_id")), List.of("i_title", "i_srp", "i_cost"));
    }
    Db.get(t, TpcwTable.CC_XACTS, Keys.id(o), "cc");
    for (String a : List.of("o_bill_addr_id", "o_ship_addr_id")) {
      Row addr = Db.get(t, TpcwTable.ADDRESS, Keys.id(Values.num(order, a)), "addr");
      Db.get(t, TpcwTable.COUNTRY, Keys.id(Values.num(addr, "addr_co_id")), "country");
    }
  }
}
