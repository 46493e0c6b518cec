package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.logbase.common.Cell;
import org.logbase.common.Row;
import org.logbase.tablet.RowScanner;
import org.logbase.tablet.Tablet;

/**
 * A tablet's rows in [start, end) in key order, read a batch at a time through one {@link
 * RowScanner} opened at the first batch (its cursors, streams and read-ahead stay open between
 * batches, rather than being set up again for every batch), those the filter lets through, up to a
 * limit. A batch holds up to its number of rows, or rows of up to about its number of bytes (one
 * row at least), whichever comes first: 500 rows of 8 MiB were one message of 4 GB, which no
 * client takes. A batch's values view the scanner's blocks until {@link #release}. Thread-safe: a
 * cancellation may close it while a batch is read.
 */
final class ForwardBatches implements RowBatches {
  private final Tablet tablet;
  private final byte[] end;
  private final List<String> columns;
  private final RowFilter filter;
  private final long asOf;
  private final int batchRows;
  private final long batchBytes;
  private final byte[] start;
  private long left;
  private boolean exhausted;
  private RowScanner scanner;
  private boolean closed;

  /**
   * @param start null: the tablet's start; @param end null: its end; @param limit rows to hand out at most
   * @param batchBytes about the most bytes of keys, names and values a batch reads
   */
  ForwardBatches(Tablet tablet, byte[] start, byte[] end, List<String> columns, RowFilter filter, long asOf,
      long limit, int batchRows, long batchBytes) {
    this.tablet = tablet;
    this.start = start;
    this.end = end;
    this.columns = columns;
    this.filter = filter;
    this.asOf = asOf;
    this.left = limit;
    this.batchRows = batchRows;
    this.batchBytes = batchBytes;
  }

  @Override
  public synchronized List<Row> next() throws IOException {
    if (closed) {
      throw new IllegalStateException("the scan was closed");
    }
    // Without a filter every row read is sent: read no more than the limit leaves.
    int want = (int) Math.min(batchRows, filter == RowFilter.ALL ? left : Long.MAX_VALUE);
    if (scanner == null) {
      scanner = tablet.openScan(start, end, filter.columnsToRead(columns), asOf);
    }
    List<Row> passed = new ArrayList<>();
    int read = 0;
    long bytes = 0;
    boolean endReached = false;
    // A row at a time, so that a batch stops at the first row that takes it to its bytes (asking for
    // several at once on the size of the rows before would overshoot where a large row follows small
    // ones); reading on from the same scanner costs no more than reading them together.
    while (read < want && bytes < batchBytes && left > 0) {
      List<Row> rows = scanner.next(1);
      if (rows.isEmpty()) {
        endReached = true;
        break;
      }
      Row r = rows.get(0);
      read++;
      bytes += size(r);
      Row p = filter.pass(r, columns);
      if (p != null) {
        passed.add(p);
        left--;
      }
    }
    exhausted = endReached || left == 0;
    if (exhausted) {
      close();
    }
    return passed;
  }

  /** About the bytes a row takes in a batch: its key, and each cell's column name and value. */
  static long size(Row r) {
    long n = r.key().length;
    for (Map.Entry<String, Cell> c : r.cells().entrySet()) {
      n += c.getKey().length() + c.getValue().valueLength() + 16;
    }
    return n;
  }

  @Override
  public synchronized void release() {
    if (scanner != null) {
      scanner.release();
    }
  }

  @Override
  public synchronized boolean exhausted() {
    return exhausted;
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    if (scanner != null) {
      scanner.close();
    }
  }
}
