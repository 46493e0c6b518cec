package org.logbase.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.logbase.common.LogBaseException;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.rpc.RowResult;
import org.logbase.rpc.ScanBatch;

/**
 * The rows of a scan, in key order across tablets. The tablets stream in parallel: the one being
 * read plus the next few ({@link ScanSpec#prefetchTablets}), each holding a bounded number of
 * batches. A tablet that moves or whose server fails mid-scan is re-located and its scan resumed
 * after the last key received.
 *
 * <p>Not thread-safe. Always {@link #close()} a scanner that is not read to its end (try with
 * resources): closing cancels its streams on the servers. A scanner is iterated once.
 */
public final class Scanner implements Iterator<Row>, Iterable<Row>, AutoCloseable {
  private final TabletRpc rpc;
  private final String table;
  private final ScanSpec spec;
  private final int prefetch;
  private final ScanPlanner planner;
  // Parts not finished yet, in key order; the first `prefetch` of them are streaming.
  private final Deque<TabletRangeScan> parts = new ArrayDeque<>();
  private Iterator<RowResult> batch = Collections.emptyIterator();
  private int returned;
  private Backoff backoff; // set while recovering from failures, cleared by progress
  private boolean closed;
  private boolean iteratorTaken;

  Scanner(TabletRpc rpc, String table, ScanSpec spec) {
    this.rpc = rpc;
    this.table = table;
    this.spec = spec;
    this.prefetch = spec.prefetchTablets() > 0 ? spec.prefetchTablets() : rpc.settings().scanPrefetchTablets();
    this.planner = new ScanPlanner(rpc, table);
    parts.addAll(inScanOrder(planner.plan(spec.start(), spec.end(), rpc.settings().newDeadline())));
    startStreams();
  }

  @Override
  public boolean hasNext() {
    while (!closed) {
      // The limit first: a tablet streamed ahead was asked for the whole limit, its batches may hold more.
      if (!limitReached() && batch.hasNext()) {
        return true;
      }
      if (limitReached() || parts.isEmpty()) {
        close();
        return false;
      }
      try {
        readNextBatch();
      } catch (RuntimeException e) {
        close(); // a failed scan must not leave streams open on the servers
        throw e;
      }
    }
    return false;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    returned++;
    return RowProtos.fromProto(batch.next());
  }

  /** This scanner, to use in a for-each loop (once). */
  @Override
  public Iterator<Row> iterator() {
    if (iteratorTaken) {
      throw new IllegalStateException("a scanner is iterated once; start a new scan");
    }
    iteratorTaken = true;
    return this;
  }

  /** The rows as a sequential stream; closing the stream closes the scanner. */
  public Stream<Row> stream() {
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL), false)
        .onClose(this::close);
  }

  /** Stops the scan and cancels its streams on the servers; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    parts.forEach(TabletRangeScan::cancel);
    parts.clear();
    batch = Collections.emptyIterator();
  }

  private boolean limitReached() {
    return spec.limit() > 0 && returned >= spec.limit();
  }

  /** Keeps the first {@code prefetch} parts streaming. */
  private void startStreams() {
    int i = 0;
    for (TabletRangeScan part : parts) {
      if (i++ >= prefetch) {
        break;
      }
      if (!part.started()) {
        part.start(rpc, table, spec, spec.limit() > 0 ? spec.limit() - returned : 0);
      }
    }
  }

  private void readNextBatch() {
    startStreams();
    TabletRangeScan head = parts.peekFirst();
    try {
      ScanBatch next = head.next(rpc, table);
      if (next == null) {
        parts.removeFirst();
      } else {
        batch = next.getRowsList().iterator();
        backoff = null;
      }
    } catch (LogBaseException e) {
      parts.removeFirst();
      resume(head, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("scan of table '" + table + "' interrupted");
    }
  }

  /** Parts planned in key order, in the order this scan reads them (last first when reverse). */
  private List<TabletRangeScan> inScanOrder(List<TabletRangeScan> planned) {
    if (!spec.reverse()) {
      return planned;
    }
    List<TabletRangeScan> reversed = new ArrayList<>(planned);
    Collections.reverse(reversed);
    return reversed;
  }

  /** Replaces a failed part by parts planned afresh from where it stopped, or throws the failure. */
  private void resume(TabletRangeScan failed, LogBaseException failure) {
    if (!failed.expiredAfterProgress(failure)) {
      if (backoff == null) {
        backoff = rpc.retrier().backoff(rpc.settings().newDeadline());
      }
      backoff.pause(failure); // throws unless retriable and in time
    }
    List<TabletRangeScan> replacement = inScanOrder(spec.reverse()
        ? planner.plan(failed.start(), failed.resumeEnd(), rpc.settings().newDeadline())
        : planner.plan(failed.resumeKey(), failed.end(), rpc.settings().newDeadline()));
    for (int i = replacement.size() - 1; i >= 0; i--) {
      parts.addFirst(replacement.get(i));
    }
  }
}
