package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.logbase.common.Row;
import org.logbase.tablet.RowScanner;
import org.logbase.tablet.Tablet;

/**
 * A tablet's rows in [start, end) in key order, read a batch at a time through one {@link
 * RowScanner} opened at the first batch (its cursors, streams and read-ahead stay open between
 * batches, rather than being set up again for every batch), those the filter lets through, up to a
 * limit. Thread-safe: a cancellation may close it while a batch is read.
 */
final class ForwardBatches implements RowBatches {
  private final Tablet tablet;
  private final byte[] end;
  private final List<String> columns;
  private final RowFilter filter;
  private final long asOf;
  private final int batchRows;
  private final byte[] start;
  private long left;
  private boolean exhausted;
  private RowScanner scanner;
  private boolean closed;

  /** @param start null: the tablet's start; @param end null: its end; @param limit rows to hand out at most */
  ForwardBatches(Tablet tablet, byte[] start, byte[] end, List<String> columns, RowFilter filter, long asOf,
      long limit, int batchRows) {
    this.tablet = tablet;
    this.start = start;
    this.end = end;
    this.columns = columns;
    this.filter = filter;
    this.asOf = asOf;
    this.left = limit;
    this.batchRows = batchRows;
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
    List<Row> read = scanner.next(want);
    List<Row> passed = new ArrayList<>(read.size());
    for (Row r : read) {
      Row p = left > 0 ? filter.pass(r, columns) : null;
      if (p != null) {
        passed.add(p);
        left--;
      }
    }
    exhausted = read.size() < want || left == 0;
    if (exhausted) {
      close();
    }
    return passed;
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
