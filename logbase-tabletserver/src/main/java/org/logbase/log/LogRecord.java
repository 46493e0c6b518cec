package org.logbase.log;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One record of the log. A row version (DATA or TOMBSTONE) names its table, tablet and column group
 * and carries the columns written; a transaction record (PREPARE, COMMIT, ABORT) names its
 * transaction. Records with {@code txnId == 0} commit by themselves.
 *
 * @param lsn log sequence number, assigned by the {@link LogWriter}; 0 before
 */
public record LogRecord(
    RecordType type,
    long lsn,
    long timestamp,
    long txnId,
    int tableId,
    int tabletId,
    int columnGroupId,
    byte[] key,
    List<Column> columns) {

  private static final String PRIMARY_TABLE = "primary.table";

  /** A column name and its value as written. */
  public record Column(String name, byte[] value) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }
  }

  public LogRecord {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    columns = List.copyOf(columns);
  }

  public static LogRecord data(
      long ts, long txnId, int table, int tablet, int group, byte[] key, List<Column> columns) {
    return new LogRecord(RecordType.DATA, 0, ts, txnId, table, tablet, group, key, columns);
  }

  public static LogRecord tombstone(long ts, long txnId, int table, int tablet, int group, byte[] key) {
    return new LogRecord(RecordType.TOMBSTONE, 0, ts, txnId, table, tablet, group, key, List.of());
  }

  /** The decision record of a transaction (or of an atomic group of row versions). */
  public static LogRecord commit(long ts, long txnId) {
    return new LogRecord(RecordType.COMMIT, 0, ts, txnId, 0, 0, 0, new byte[0], List.of());
  }

  /**
   * Marks the transaction's records before it in the log as prepared (phase one of two-phase
   * commit): after a crash they come back as locks instead of being dropped. Names the primary row,
   * whose server decides the outcome.
   */
  public static LogRecord prepare(long txnId, String primaryTable, byte[] primaryKey) {
    return new LogRecord(RecordType.PREPARE, 0, txnId, txnId, 0, 0, 0, primaryKey,
        List.of(new Column(PRIMARY_TABLE, primaryTable.getBytes(StandardCharsets.UTF_8))));
  }

  /** The primary row's table named by a PREPARE record. */
  public String primaryTable() {
    byte[] t = column(PRIMARY_TABLE);
    return t == null ? null : new String(t, StandardCharsets.UTF_8);
  }

  public static LogRecord abort(long txnId) {
    return new LogRecord(RecordType.ABORT, 0, 0, txnId, 0, 0, 0, new byte[0], List.of());
  }

  LogRecord withLsn(long newLsn) {
    return new LogRecord(type, newLsn, timestamp, txnId, tableId, tabletId, columnGroupId, key, columns);
  }

  /** Finds a column's value, or null. */
  public byte[] column(String name) {
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return c.value();
      }
    }
    return null;
  }
}
