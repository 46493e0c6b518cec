package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.logbase.common.Row;

/**
 * The last {@code limit} rows of a range, last first. The index is read in key order only, so the
 * range is read forwards once, keeping the last {@code limit} rows that pass: memory is bounded by
 * the limit (a reverse scan must have one), time grows with the range. The rows kept are copies
 * ({@link Row#owned}): a view would hold its whole block, and the forward scan reuses its blocks
 * batch by batch.
 */
final class ReverseBatches implements RowBatches {
  /** The largest limit a reverse scan may have: what it keeps in memory. */
  static final int MAX_LIMIT = 10_000;

  private final RowBatches forward;
  private final int limit;
  private final int batchRows;
  private final long batchBytes;
  private final BooleanSupplier cancelled;
  private ArrayDeque<Row> last;

  /**
   * @param forward the range in key order, every row that passes (no limit)
   * @param batchBytes about the most bytes of rows a batch carries (one row at least), as forwards
   * @param cancelled whether the caller gave up (checked while reading forwards)
   */
  ReverseBatches(RowBatches forward, int limit, int batchRows, long batchBytes, BooleanSupplier cancelled) {
    this.forward = forward;
    this.limit = limit;
    this.batchRows = batchRows;
    this.batchBytes = batchBytes;
    this.cancelled = cancelled;
  }

  @Override
  public List<Row> next() throws IOException {
    if (last == null) {
      last = new ArrayDeque<>(limit);
      while (!forward.exhausted() && !cancelled.getAsBoolean()) {
        for (Row r : forward.next()) {
          if (last.size() == limit) {
            last.removeFirst();
          }
          last.addLast(r.owned());
        }
        forward.release();
      }
    }
    List<Row> batch = new ArrayList<>(Math.min(batchRows, last.size()));
    long bytes = 0;
    while (batch.size() < batchRows && !last.isEmpty()
        && (batch.isEmpty() || bytes + ForwardBatches.size(last.peekLast()) <= batchBytes)) {
      Row r = last.removeLast();
      bytes += ForwardBatches.size(r);
      batch.add(r);
    }
    return batch;
  }

  /** Nothing to do: the rows are copies. */
  @Override
  public void release() {}

  @Override
  public boolean exhausted() {
    return last != null && last.isEmpty();
  }

  @Override
  public void close() throws IOException {
    forward.close();
  }
}
