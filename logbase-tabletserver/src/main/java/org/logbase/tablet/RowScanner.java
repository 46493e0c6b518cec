package org.logbase.tablet;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.logbase.common.Bytes;
import org.logbase.common.Cells;
import org.logbase.common.Closeables;
import org.logbase.common.Row;
import org.logbase.sorted.BlockLoans;

/**
 * A scan of one tablet that stays open from page to page ({@link Tablet#openScan}): each column
 * group's version cursor (the index's and the sorted segments', with their streams and read-ahead)
 * is opened once and read on where the last page stopped, as HBase's region scanner is, instead of
 * being set up again for every page. The tablet it reads is the immutable one it was opened on, so
 * every page sees the same index and segments. {@link #close} gives the segments' streams back; a
 * scanner read to its end closes itself. Not thread-safe: one reader at a time.
 *
 * <p><b>Rows' lifetime.</b> Values read from sorted segments are views of the blocks the scan read
 * ({@link org.logbase.common.Cell#view}), not copies: a full scan spent a fifth of its time writing
 * every value into new memory (docs/benchmarks.md). The rows {@link #next} returns stay readable
 * until {@link #release}, which lets the scan read later blocks into those blocks' arrays: call it
 * once the rows were used (sent, or copied with {@link Row#owned}), as a server's scan call does
 * after each batch, HBase's {@code shipped()}. A value of a released row read afterwards fails with
 * {@link IllegalStateException}, never another row's bytes. Closing the scanner does not end its
 * rows: they stay readable, and the blocks they view are left to the collector.
 */
public final class RowScanner implements Closeable {
  private final List<GroupScan> scans;
  private final BlockLoans loans;
  private final int columns; // the most a row can hold: each row's cells are sized for it
  private boolean exhausted;
  private boolean closed;

  /**
   * @param scans one per column group read, in entry order; closed with this
   * @param loans the blocks the scans' values view ({@link BlockLoans}), released by {@link #release}
   */
  RowScanner(List<GroupScan> scans, BlockLoans loans) {
    this.scans = scans;
    this.loans = loans;
    this.columns = scans.stream().mapToInt(s -> s.wanted.size()).sum();
    this.exhausted = scans.isEmpty();
  }

  /** A scanner with nothing to read (an empty range). */
  static RowScanner empty() {
    return new RowScanner(List.of(), new BlockLoans());
  }

  /**
   * The next rows in key order, at most {@code maxRows}; fewer only at the end of the range (then
   * the scanner has closed its cursors). Readable until {@link #release}.
   *
   * @throws IllegalStateException if the scanner was closed before its end
   */
  public List<Row> next(int maxRows) throws IOException {
    if (maxRows <= 0) {
      throw new IllegalArgumentException("a page holds at least one row, not " + maxRows);
    }
    List<Row> out = new ArrayList<>(Math.min(maxRows, 1024));
    if (exhausted) {
      return out;
    }
    if (closed) {
      throw new IllegalStateException("the scanner is closed");
    }
    try {
      readRows(maxRows, out);
    } catch (Throwable e) { // the streams go back; the failure stays the one thrown
      closed = true;
      Closeables.closeAllAfter(scans, e);
      loans.forget();
      throw e;
    }
    if (out.size() < maxRows) {
      exhausted = true;
      close();
    }
    return out;
  }

  /** Whether every row of the range has been returned. */
  public boolean exhausted() {
    return exhausted;
  }

  /**
   * The rows returned so far are no longer read: the blocks their values view may be read into
   * again, and reading such a value from now on fails. Rows that must outlive this are copied
   * first ({@link Row#owned}).
   */
  public void release() {
    loans.release();
  }

  /**
   * Closes the cursors (a failure to close one does not keep the others open). The rows returned
   * stay readable: the blocks they view are never read into again.
   */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      try {
        Closeables.closeAll(scans);
      } finally {
        loans.forget();
      }
    }
  }

  /** Merges the groups' scans by key into rows, at most {@code limit}. */
  private void readRows(int limit, List<Row> out) throws IOException {
    while (out.size() < limit) {
      byte[] next = null;
      for (GroupScan s : scans) {
        byte[] k = s.peekKey();
        if (k != null && (next == null || Bytes.compare(k, next) < 0)) {
          next = k;
        }
      }
      if (next == null) {
        return;
      }
      Cells.Builder cells = Cells.builder(columns);
      for (GroupScan s : scans) {
        byte[] k = s.peekKey();
        if (k != null && (k == next || Bytes.compare(k, next) == 0)) {
          s.readRow(cells);
        }
      }
      if (!cells.isEmpty()) {
        out.add(new Row(next, cells.build()));
      }
    }
  }

  /** Walks one column group's versions in key order, resolving each row as of a timestamp. */
  static final class GroupScan implements Closeable {
    private final VersionCursor cursor;
    private final Set<String> wanted;
    private boolean started;
    private boolean has;

    /** @param cursor the versions a read may see, in entry order; closed with this */
    GroupScan(VersionCursor cursor, Set<String> wanted) {
      this.cursor = cursor;
      this.wanted = wanted;
    }

    @Override
    public void close() throws IOException {
      cursor.close();
    }

    byte[] peekKey() throws IOException {
      if (!started) {
        has = cursor.next();
        started = true;
      }
      return has ? cursor.key() : null;
    }

    /** Resolves the row at the cursor into {@code out} and moves past all its versions. */
    void readRow(Cells.Builder out) throws IOException {
      byte[] key = cursor.key();
      int missing = wanted.size();
      boolean done = false;
      while (has && Bytes.compare(cursor.key(), key) == 0) {
        if (!done) {
          if (cursor.isTombstone()) {
            done = true;
          } else {
            missing -= Tablet.collect(cursor.columns(), cursor.timestamp(), wanted, out);
            done = missing == 0;
          }
        }
        has = cursor.next();
      }
    }
  }
}
