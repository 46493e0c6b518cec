package org.logbase.shell;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.client.Transaction;
import org.logbase.common.Row;

/**
 * The rows of one table as put, get, scan and delete reach them: through the session's open
 * transaction (its snapshot plus its own writes; writes buffered until commit), else straight to
 * the table, each write committed on its own.
 */
interface TableRows {
  static TableRows of(ShellSession session, String table) {
    Transaction txn = session.transaction();
    return txn == null ? new Direct(session.client().table(table)) : new InTransaction(txn, table);
  }

  Row get(byte[] key, ReadOptions read);

  /** Passes the rows of the scan to {@code each} in key order; returns how many there were. */
  int scan(ScanSpec.Builder spec, ReadOptions read, Consumer<Row> each);

  /** Writes (or buffers) the columns; returns the line that tells the user what happened. */
  String put(byte[] key, Map<String, byte[]> columns);

  /** Deletes (or buffers the delete of) the row; returns the line that tells the user what happened. */
  String delete(byte[] key);

  /** Autocommit: every request is its own atomic write or read. */
  record Direct(Table table) implements TableRows {
    @Override
    public Row get(byte[] key, ReadOptions read) {
      return table.get(key, read.columns, read.asOfTimestamp());
    }

    @Override
    public int scan(ScanSpec.Builder spec, ReadOptions read, Consumer<Row> each) {
      int rows = 0;
      try (Scanner scanner = table.scan(spec.columns(read.columns).asOf(read.asOfTimestamp()).build())) {
        for (Row row : scanner) {
          each.accept(row);
          rows++;
        }
      }
      return rows;
    }

    @Override
    public String put(byte[] key, Map<String, byte[]> columns) {
      return "OK, timestamp " + TimestampArgs.format(table.put(key, columns));
    }

    @Override
    public String delete(byte[] key) {
      return "OK, deleted at timestamp " + TimestampArgs.format(table.delete(key));
    }
  }

  /** Inside a transaction: reads at its snapshot, writes buffered until commit. */
  record InTransaction(Transaction txn, String table) implements TableRows {
    @Override
    public Row get(byte[] key, ReadOptions read) {
      read.checkNoAsOf(txn.startTimestamp());
      return txn.get(table, key, read.columns);
    }

    @Override
    public int scan(ScanSpec.Builder spec, ReadOptions read, Consumer<Row> each) {
      read.checkNoAsOf(txn.startTimestamp());
      List<Row> rows = txn.scan(table, spec.columns(read.columns).build());
      rows.forEach(each);
      return rows.size();
    }

    @Override
    public String put(byte[] key, Map<String, byte[]> columns) {
      checkWritable();
      txn.put(table, key, columns);
      return "OK, buffered in transaction " + txn.startTimestamp() + " (written at commit)";
    }

    @Override
    public String delete(byte[] key) {
      checkWritable();
      txn.delete(table, key);
      return "OK, delete buffered in transaction " + txn.startTimestamp() + " (written at commit)";
    }

    private void checkWritable() {
      if (txn.isReadOnly()) {
        throw new ShellException("transaction " + txn.startTimestamp() + " is read-only: 'abort' it, then 'begin'"
            + " without --read-only or --as-of to write");
      }
    }
  }
}
