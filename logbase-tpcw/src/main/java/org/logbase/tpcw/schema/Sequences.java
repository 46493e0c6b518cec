package org.logbase.tpcw.schema;

import java.util.List;

/**
 * The rows of {@link TpcwTable#SEQUENCES}: one per table that gets rows with new ids during a run
 * (its next id, and how many the load wrote), and one with the database's scale.
 */
public final class Sequences {
  /** Tables whose ids come from a sequence. */
  public static final List<TpcwTable> TABLES =
      List.of(TpcwTable.ORDERS, TpcwTable.CUSTOMER, TpcwTable.ADDRESS, TpcwTable.SHOPPING_CART);

  /** The key of the row with the scale (items, browsers), the seed and the load's time. */
  public static final byte[] SCALE = Keys.utf8("_scale");

  private Sequences() {}

  /** The key of a table's sequence row. */
  public static byte[] of(TpcwTable table) {
    if (!TABLES.contains(table)) {
      throw new IllegalArgumentException(table + " has no sequence");
    }
    return Keys.utf8(table.table());
  }
}
