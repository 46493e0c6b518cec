package org.logbase.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.logbase.common.Cell;
import org.logbase.common.Loan;

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

  /**
   * A column name and its value: as written (an array of its own), or as a row scan read it from a
   * sorted segment, a view of the block that holds it ({@link #view}), readable until the scan takes
   * the block back (see {@link Cell#view}). Immutable; equal by name and value bytes.
   */
  public static final class Column {
    private final String name;
    private final byte[] array;
    private final int offset;
    private final int length;
    /** Null: nobody reuses the array. */
    private final Loan loan;

    /** A column that owns {@code value} (kept as it is, not copied). */
    public Column(String name, byte[] value) {
      this(name, Objects.requireNonNull(value, "value"), 0, value.length, null);
    }

    private Column(String name, byte[] array, int offset, int length, Loan loan) {
      this.name = Objects.requireNonNull(name, "name");
      this.array = array;
      this.offset = offset;
      this.length = length;
      this.loan = loan;
    }

    /** A view of {@code array[offset, offset + length)}, readable while {@code loan} runs (null: always). */
    public static Column view(String name, byte[] array, int offset, int length, Loan loan) {
      Objects.checkFromIndexSize(offset, length, array.length);
      return new Column(name, array, offset, length, loan);
    }

    public String name() {
      return name;
    }

    /**
     * The value: the column's own array if it owns one (do not change it), else a copy.
     *
     * @throws IllegalStateException if it is a view whose loan has ended
     */
    public byte[] value() {
      return loan == null && offset == 0 && length == array.length ? array : Loan.copy(array, offset, length, loan);
    }

    /** Bytes of the value. */
    public int valueLength() {
      Loan.check(loan);
      return length;
    }

    /** The value as a cell of a version with timestamp {@code ts}: a view if this is one, without a copy. */
    public Cell cell(long ts) {
      return Cell.view(array, offset, length, ts, loan);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Column c && name.equals(c.name) && Arrays.equals(value(), c.value());
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + Arrays.hashCode(value());
    }

    @Override
    public String toString() {
      return "Column[" + name + ", " + length + " bytes]";
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
