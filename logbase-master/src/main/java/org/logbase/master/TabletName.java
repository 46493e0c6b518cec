package org.logbase.master;

/** A tablet by table name and tablet id, as a map key. */
record TabletName(String table, int tabletId) {
  @Override
  public String toString() {
    return TableMetas.tabletName(table, tabletId);
  }
}
