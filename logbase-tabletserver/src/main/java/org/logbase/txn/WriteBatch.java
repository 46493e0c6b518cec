package org.logbase.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.logbase.tablet.Tablet;

/**
 * Rows to write outside a transaction, each an atomic version of its own, in one log batch: the unit
 * of the one write path ({@link TxnManager#write}), as LevelDB's Write(WriteBatch) under Put. A
 * server's BatchMutate, the storage demo, the crash tests and the engine benchmarks all write this
 * way: rows locked, timestamps taken together, one append, locks released once durable.
 */
public final class WriteBatch {
  private final List<RowWrite> rows = new ArrayList<>();

  public WriteBatch put(Tablet tablet, byte[] key, Map<String, byte[]> columns) {
    rows.add(RowWrite.put(tablet, key, columns));
    return this;
  }

  public WriteBatch delete(Tablet tablet, byte[] key) {
    rows.add(RowWrite.delete(tablet, key));
    return this;
  }

  public WriteBatch add(RowWrite w) {
    rows.add(w);
    return this;
  }

  public int size() {
    return rows.size();
  }

  List<RowWrite> rows() {
    return rows;
  }
}
