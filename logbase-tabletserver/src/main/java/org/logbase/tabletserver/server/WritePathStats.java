package org.logbase.tabletserver.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** Times the stages of the tablet server's write requests and its oracle calls. */
final class WritePathStats implements WritePathStatsMXBean {
  private final LongAdder requests = new LongAdder();
  private final LongAdder rows = new LongAdder();
  private final LongAdder untilAppended = new LongAdder();
  private final LongAdder untilDurable = new LongAdder();
  private final LongAdder oracleCalls = new LongAdder();
  private final LongAdder oracleNanos = new LongAdder();

  /**
   * Runs {@code write}, which returns once its rows are queued on the log with a future that
   * completes when they are durable, and times both stages.
   */
  <T> CompletableFuture<T> time(int rowCount, Supplier<CompletableFuture<T>> write) {
    long start = System.nanoTime();
    CompletableFuture<T> durable = write.get();
    long appended = System.nanoTime();
    return durable.thenApply(result -> {
      long end = System.nanoTime();
      untilAppended.add(appended - start);
      untilDurable.add(end - start);
      rows.add(rowCount);
      requests.increment();
      return result;
    });
  }

  /** Records one oracle call that took {@code nanos}. */
  void oracleCall(long nanos) {
    oracleNanos.add(nanos);
    oracleCalls.increment();
  }

  @Override
  public long getRequests() {
    return requests.sum();
  }

  @Override
  public long getRows() {
    return rows.sum();
  }

  @Override
  public long getNanosUntilAppended() {
    return untilAppended.sum();
  }

  @Override
  public long getNanosUntilDurable() {
    return untilDurable.sum();
  }

  @Override
  public long getOracleCalls() {
    return oracleCalls.sum();
  }

  @Override
  public long getOracleNanos() {
    return oracleNanos.sum();
  }
}
