package org.logbase.tpcw.data;

import org.logbase.client.Admin;
import org.logbase.tpcw.schema.TpcwTable;

/** Creates the TPC-W tables, pre-split, before a load. */
public final class TableSetup {
  public static final int MAX_TABLETS = 256;

  private TableSetup() {}

  /**
   * Creates every table with up to {@code tablets} tablets. Existing TPC-W tables are dropped first
   * if {@code replace}, else refused.
   */
  public static void create(Admin admin, int tablets, boolean replace) {
    if (tablets < 1 || tablets > MAX_TABLETS) {
      throw new IllegalArgumentException("tablets per table must be from 1 to " + MAX_TABLETS + ", got " + tablets);
    }
    for (TpcwTable t : TpcwTable.values()) {
      if (admin.tableExists(t.table())) {
        if (!replace) {
          throw new IllegalStateException("table " + t.table() + " exists already: a TPC-W database is loaded "
              + "(add --replace to drop the TPC-W tables and load again)");
        }
        admin.dropTable(t.table());
      }
    }
    for (TpcwTable t : TpcwTable.values()) {
      admin.createTable(t.definition(), t.splitKeys(tablets));
    }
  }
}
