package org.logbase.txn;

import java.util.Arrays;
import org.logbase.common.Bytes;

/** The unit of locking: one row of one table. Ordered by table, then key bytes (unsigned). */
public record LockKey(int tableId, byte[] key) implements Comparable<LockKey> {
  @Override
  public int compareTo(LockKey o) {
    int c = Integer.compare(tableId, o.tableId);
    return c != 0 ? c : Bytes.compare(key, o.key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockKey k && k.tableId == tableId && Arrays.equals(k.key, key);
  }

  @Override
  public int hashCode() {
    return 31 * tableId + Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return tableId + "/" + Bytes.toStringBinary(key);
  }
}
