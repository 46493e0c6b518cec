package org.logbase.tpcw.web;

import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.tpcw.data.Population;
import org.logbase.tpcw.schema.Keys;
import org.logbase.tpcw.schema.TpcwTable;
import org.logbase.tpcw.schema.Values;

/** Finding customers: a random one of the loaded customers, and a customer by user name and password. */
final class Customers {
  private final int loaded;

  Customers(int loaded) {
    this.loaded = loaded;
  }

  long random(Session s) {
    return s.random().between(1, loaded);
  }

  /** The browser's customer, or a random one (staged as the browser's). */
  long current(Session s) {
    if (s.customer() != 0) {
      return s.customer();
    }
    long c = random(s);
    s.stageCustomer(c);
    return c;
  }

  /**
   * Signs customer {@code c} in as a browser would: looks the user name up in the name index and
   * checks the password; returns the customer's login columns.
   */
  Row signIn(Transaction t, long c) {
    String uname = Population.userName(c);
    Row ref = t.get(TpcwTable.CUSTOMER_BY_UNAME.table(), Keys.utf8(Keys.hashed(uname)), null);
    long id = Values.num(ref, "c_id");
    Row customer = Db.get(t, TpcwTable.CUSTOMER, Keys.id(id), "login");
    if (!Values.text(customer, "c_passwd").equals(Population.password(uname))) {
      throw new IllegalStateException("customer " + uname + ": the password does not match");
    }
    return customer;
  }
}
