package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.logbase.common.Row;
import org.logbase.tablet.Tablet;

/**
 * A tablet's rows in [start, end) in key order, read a batch at a time, those the filter lets
 * through, up to a limit.
 */
final class ForwardBatches implements RowBatches {
  private final Tablet tablet;
  private final byte[] end;
  private final List<String> columns;
  private final RowFilter filter;
  private final long asOf;
  private final int batchRows;
  private byte[] start;
  private long left;
  private boolean exhausted;

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
  public List<Row> next() throws IOException {
    // Without a filter every row read is sent: read no more than the limit leaves.
    int want = (int) Math.min(batchRows, filter == RowFilter.ALL ? left : Long.MAX_VALUE);
    List<Row> read = tablet.scan(start, end, filter.columnsToRead(columns), asOf, want);
    List<Row> passed = new ArrayList<>(read.size());
    for (Row r : read) {
      Row p = left > 0 ? filter.pass(r, columns) : null;
      if (p != null) {
        passed.add(p);
        left--;
      }
    }
    if (!read.isEmpty()) {
      start = RowBatches.successor(read.get(read.size() - 1).key());
    }
    exhausted = read.size() < want || left == 0;
    return passed;
  }

  @Override
  public boolean exhausted() {
    return exhausted;
  }
}
