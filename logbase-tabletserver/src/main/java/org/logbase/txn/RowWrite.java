package org.logbase.txn;

import java.util.List;
import java.util.Map;
import org.logbase.log.LogRecord;
import org.logbase.tablet.Tablet;

/**
 * One row written by a transaction or by a one-row write: a put of some columns, or a delete.
 *
 * @param columns the columns put; null for a delete
 */
public record RowWrite(Tablet tablet, byte[] key, Map<String, byte[]> columns) {
  public static RowWrite put(Tablet tablet, byte[] key, Map<String, byte[]> columns) {
    return new RowWrite(tablet, key, columns);
  }

  public static RowWrite delete(Tablet tablet, byte[] key) {
    return new RowWrite(tablet, key, null);
  }

  public LockKey row() {
    return new LockKey(tablet.descriptor().schema().id(), key);
  }

  /** The log records of this write as a version with timestamp {@code ts} of transaction {@code txnId}. */
  List<LogRecord> records(long ts, long txnId) {
    return columns == null ? tablet.deleteRecords(key, ts, txnId) : tablet.putRecords(key, columns, ts, txnId);
  }
}
