package org.logbase.chaos.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.chaos.history.HistoryFormat;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;
import org.logbase.common.LogBaseException;

/**
 * What the workloads did, from the runner's threads and from client processes (whose stdout lines
 * arrive through {@link #line}): the list-append history, counts of bank transfers by outcome, the
 * bank snapshots, and the single-row writes acknowledged.
 */
public final class Recorder {
  /** A transaction line at invoke says INFO; the line at completion replaces it. */
  private final Map<Long, Txn> listAppend = new ConcurrentHashMap<>();
  private final Map<Outcome, LongAdder> transfers = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Bank.Snapshot> snapshots = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> acknowledgedWrites = new ConcurrentLinkedQueue<>();
  private final LongAdder unacknowledgedWrites = new LongAdder();
  private final LongAdder failedSnapshots = new LongAdder();
  private final ConcurrentLinkedQueue<SlowScans.Scan> slowScans = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<LogBaseException> failedSlowScans = new ConcurrentLinkedQueue<>();
  private final LongAdder slowScanRewrites = new LongAdder();
  private final LongAdder failedSlowScanRewrites = new LongAdder();

  private final Map<Long, List<Counter.Increment>> increments = new ConcurrentHashMap<>();

  /**
   * A counter increment acknowledged to its writer. Two writers told they committed the same value
   * are a lost update; both are kept, for the check to report.
   */
  public void incremented(long value, Counter.Increment increment) {
    increments.computeIfAbsent(value, v -> new CopyOnWriteArrayList<>()).add(increment);
  }

  public Map<Long, List<Counter.Increment>> increments() {
    Map<Long, List<Counter.Increment>> copy = new HashMap<>();
    increments.forEach((v, list) -> copy.put(v, List.copyOf(list)));
    return copy;
  }

  public void txn(Txn t) {
    listAppend.put(t.id(), t);
  }

  public void transfer(Outcome o) {
    transfers.computeIfAbsent(o, x -> new LongAdder()).increment();
  }

  public void snapshot(Bank.Snapshot s) {
    snapshots.add(s);
  }

  public void snapshotFailed() {
    failedSnapshots.increment();
  }

  public void slowScan(SlowScans.Scan s) {
    slowScans.add(s);
  }

  public void slowScanFailed(LogBaseException e) {
    failedSlowScans.add(e);
  }

  public void slowScanRewrite(boolean ok) {
    (ok ? slowScanRewrites : failedSlowScanRewrites).increment();
  }

  public long slowScanRewrites() {
    return slowScanRewrites.sum();
  }

  public long failedSlowScanRewrites() {
    return failedSlowScanRewrites.sum();
  }

  public List<SlowScans.Scan> slowScans() {
    return List.copyOf(slowScans);
  }

  public List<LogBaseException> failedSlowScans() {
    return List.copyOf(failedSlowScans);
  }

  public void written(List<String> keys) {
    acknowledgedWrites.addAll(keys);
  }

  public void notWritten(int n) {
    unacknowledgedWrites.add(n);
  }

  /** A line a client process printed: {@code T ...} (a list-append transaction) or {@code B OUTCOME}. */
  public void line(String line) {
    if (HistoryFormat.isTxn(line)) {
      txn(HistoryFormat.parse(line));
    } else if (line.startsWith("B ")) {
      transfer(Outcome.valueOf(line.substring(2).trim()));
    }
  }

  public List<Txn> listAppendHistory() {
    List<Txn> out = new ArrayList<>(listAppend.values());
    out.sort((a, b) -> Long.compare(a.invokeNanos(), b.invokeNanos()));
    return out;
  }

  public long transfers(Outcome o) {
    LongAdder a = transfers.get(o);
    return a == null ? 0 : a.sum();
  }

  public List<Bank.Snapshot> snapshots() {
    return List.copyOf(snapshots);
  }

  public long failedSnapshots() {
    return failedSnapshots.sum();
  }

  public List<String> acknowledgedWrites() {
    return List.copyOf(acknowledgedWrites);
  }

  public long unacknowledgedWrites() {
    return unacknowledgedWrites.sum();
  }
}
