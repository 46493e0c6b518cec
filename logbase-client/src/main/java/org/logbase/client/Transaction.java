package org.logbase.client;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.logbase.common.Bytes;
import org.logbase.common.Cell;
import org.logbase.common.ColumnCondition;
import org.logbase.common.Row;

/**
 * A transaction under snapshot isolation, from {@link LogBaseClient#begin()}. Reads see the
 * database as of the start timestamp plus the transaction's own writes; writes are buffered here
 * until {@link #commit()}, which fails with {@link org.logbase.common.TransactionConflictException}
 * when another transaction committed a write to one of the same rows after this one began (first
 * committer wins). Rows may live in any tables and on any tablet servers.
 *
 * <pre>{@code
 * long total = client.inTransaction(txn -> {
 *   long a = balance(txn.get("accounts", alice)), b = balance(txn.get("accounts", bob));
 *   txn.put("accounts", alice, Map.of("balance", encode(a - 10)));
 *   txn.put("accounts", bob, Map.of("balance", encode(b + 10)));
 *   return a + b;
 * });
 * }</pre>
 *
 * <p>A read-only transaction ({@link LogBaseClient#beginReadOnly()}, {@link
 * LogBaseClient#snapshotAt(long)}) takes no locks and never aborts. Not thread-safe; close (or
 * commit, or abort) every transaction: closing an uncommitted one aborts it.
 */
public final class Transaction implements AutoCloseable {
  private enum State { ACTIVE, COMMITTED, ABORTED }

  private final TxnCoordinator coordinator;
  private final long startTs;
  private final boolean readOnly;
  private final TreeMap<TxnRow, TxnRow> writes = new TreeMap<>();
  private State state = State.ACTIVE;
  private long commitTs;
  private final SnapshotHolds.Hold hold;

  /**
   * @param hold its snapshot, held at the master if it stays open long (released when it ends)
   */
  Transaction(TxnCoordinator coordinator, long startTs, boolean readOnly, SnapshotHolds.Hold hold) {
    this.hold = hold;
    this.coordinator = coordinator;
    this.startTs = startTs;
    this.readOnly = readOnly;
  }

  /** The snapshot this transaction reads; also its id. */
  public long startTimestamp() {
    return startTs;
  }

  public boolean isReadOnly() {
    return readOnly;
  }

  /** The row as of the snapshot with this transaction's own writes applied; null if there is none. */
  public Row get(String table, byte[] key) {
    return get(table, key, null);
  }

  /**
   * Like {@link #get(String, byte[])}, only the given columns (null or empty: all).
   */
  public Row get(String table, byte[] key, Collection<String> columns) {
    checkActive();
    TxnRow own = writes.get(new TxnRow(table, key));
    if (own != null && own.isDelete()) {
      return null;
    }
    boolean all = columns == null || columns.isEmpty();
    if (own != null && !all && own.columns.keySet().containsAll(columns)) {
      return overlay(null, own, key, columns);
    }
    Row stored = new Table(table, coordinator.rpc()).get(key, all ? List.of() : columns, startTs);
    return own == null ? stored : overlay(stored, own, key, all ? null : columns);
  }

  /**
   * The rows of a scan as of the snapshot, with this transaction's own writes applied. The spec's
   * {@code asOf} is ignored: a transaction reads its snapshot. Rows are returned as a list. A filter
   * is evaluated here, on the rows merged with the transaction's writes (which may change whether
   * a row passes), so with one the servers send every row of the range; so does a reverse scan,
   * which is reversed here.
   */
  public List<Row> scan(String table, ScanSpec spec) {
    checkActive();
    List<TxnRow> own = new ArrayList<>();
    for (TxnRow w : writes.values()) {
      if (w.table.equals(table) && inRange(w.key, spec.start(), spec.end())) {
        own.add(w);
      }
    }
    int deletes = (int) own.stream().filter(TxnRow::isDelete).count();
    ColumnCondition filter = spec.filter();
    // The filter's column is read (and later left out) even if not asked for: rows are tested here.
    List<String> read = spec.columns();
    boolean extra = filter != null && !read.isEmpty() && !read.contains(filter.column());
    if (extra) {
      read = new ArrayList<>(read);
      read.add(filter.column());
    }
    ScanSpec.Builder b = ScanSpec.builder().start(spec.start()).end(spec.end()).columns(read)
        .asOf(startTs).batchRows(spec.batchRows()).prefetchTablets(spec.prefetchTablets());
    if (spec.limit() > 0 && spec.filter() == null && !spec.reverse()) {
      b.limit(spec.limit() + deletes); // own deletes may hide some of the rows read
    }
    TreeMap<byte[], Row> rows = new TreeMap<>(Bytes.ORDER);
    try (Scanner s = new Table(table, coordinator.rpc()).scan(b.build())) {
      for (Row r : s) {
        rows.put(r.key(), r);
      }
    }
    List<String> cols = read.isEmpty() ? null : read;
    for (TxnRow w : own) {
      if (w.isDelete()) {
        rows.remove(w.key);
      } else {
        Row merged = overlay(rows.get(w.key), w, w.key, cols);
        if (merged != null) {
          rows.put(w.key, merged);
        }
      }
    }
    List<Row> out = new ArrayList<>();
    for (Row r : spec.reverse() ? rows.descendingMap().values() : rows.values()) {
      if (filter == null) {
        out.add(r);
      } else if (filter.test(r)) {
        Row asked = extra ? only(r, spec.columns()) : r;
        if (asked != null) {
          out.add(asked);
        }
      }
    }
    return spec.limit() > 0 && out.size() > spec.limit() ? out.subList(0, spec.limit()) : out;
  }

  /** Buffers a put of some columns of a row (blind: the row's other columns keep their values). */
  public void put(String table, byte[] key, Map<String, byte[]> columns) {
    checkWritable();
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a put needs at least one column");
    }
    TxnRow row = writes.get(new TxnRow(table, key));
    if (row != null && row.isDelete()) {
      throw new UnsupportedOperationException("a put after a delete of the same row in one transaction is not "
          + "supported: " + table + "/" + Bytes.toStringBinary(key));
    }
    if (row == null) {
      row = new TxnRow(table, key);
      writes.put(row, row);
    }
    row.put(columns);
  }

  /** Buffers a delete of a row (a tombstone version once committed); replaces puts buffered for it. */
  public void delete(String table, byte[] key) {
    checkWritable();
    TxnRow row = new TxnRow(table, key); // no columns: a delete
    writes.remove(row);
    writes.put(row, row);
  }

  /**
   * Commits: nothing of the transaction is visible before, all of it after.
   *
   * @return the commit timestamp (the start timestamp for a transaction that wrote nothing)
   * @throws org.logbase.common.TransactionConflictException if another transaction won a row first
   * @throws org.logbase.common.TransactionAbortedException if it was aborted (a participant
   *     failed, or it was resolved as aborted)
   */
  public long commit() {
    checkActive();
    try {
      commitTs = writes.isEmpty() ? startTs
          : coordinator.commit(startTs, new ArrayList<>(writes.values()), Durability.HFLUSH);
      state = State.COMMITTED;
      return commitTs;
    } catch (RuntimeException e) {
      state = State.ABORTED;
      throw e;
    } finally {
      hold.release();
    }
  }

  /** Discards the buffered writes; nothing was sent, so nothing needs undoing. */
  public void abort() {
    if (state == State.ACTIVE) {
      writes.clear();
      state = State.ABORTED;
    }
    hold.release();
  }

  public boolean isCommitted() {
    return state == State.COMMITTED;
  }

  /** The commit timestamp, once committed. */
  public long commitTimestamp() {
    if (state != State.COMMITTED) {
      throw new IllegalStateException("transaction " + startTs + " has not committed");
    }
    return commitTs;
  }

  @Override
  public void close() {
    abort();
  }

  /** {@code row} with only these columns; null if it has none of them. */
  private static Row only(Row row, Collection<String> columns) {
    TreeMap<String, Cell> cells = new TreeMap<>(row.cells());
    cells.keySet().retainAll(columns);
    return cells.isEmpty() ? null : new Row(row.key(), cells);
  }

  private Row overlay(Row stored, TxnRow own, byte[] key, Collection<String> columns) {
    TreeMap<String, Cell> cells = new TreeMap<>();
    if (stored != null) {
      cells.putAll(stored.cells());
    }
    // Own writes are not committed: their cells carry timestamp 0.
    own.columns.forEach((c, v) -> {
      if (columns == null || columns.contains(c)) {
        cells.put(c, new Cell(v.clone(), 0));
      }
    });
    return cells.isEmpty() ? null : new Row(key, cells);
  }

  private static boolean inRange(byte[] key, byte[] start, byte[] end) {
    return (start.length == 0 || Bytes.compare(key, start) >= 0) && (end.length == 0 || Bytes.compare(key, end) < 0);
  }

  private void checkActive() {
    if (state != State.ACTIVE) {
      throw new IllegalStateException("transaction " + startTs + " is " + state.name().toLowerCase(Locale.ROOT));
    }
  }

  private void checkWritable() {
    checkActive();
    if (readOnly) {
      throw new IllegalStateException("transaction " + startTs + " is read-only");
    }
  }
}
