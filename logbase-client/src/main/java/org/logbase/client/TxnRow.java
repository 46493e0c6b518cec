package org.logbase.client;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.logbase.common.Bytes;

/**
 * A row a transaction writes, buffered until commit: the columns put (merged over several puts)
 * or a delete. Ordered by table name, then key, which is the order rows are locked in.
 */
final class TxnRow implements Comparable<TxnRow> {
  final String table;
  final byte[] key;
  /** Null for a delete. */
  Map<String, byte[]> columns;

  TxnRow(String table, byte[] key) {
    this.table = table;
    this.key = key.clone();
  }

  boolean isDelete() {
    return columns == null;
  }

  void put(Map<String, byte[]> more) {
    if (columns == null) {
      columns = new LinkedHashMap<>();
    }
    more.forEach((c, v) -> columns.put(c, v.clone()));
  }

  @Override
  public int compareTo(TxnRow o) {
    int c = table.compareTo(o.table);
    return c != 0 ? c : Bytes.compare(key, o.key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TxnRow r && compareTo(r) == 0;
  }

  @Override
  public int hashCode() {
    return 31 * table.hashCode() + Arrays.hashCode(key);
  }
}
