package org.logbase.client;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.concurrent.atomic.LongAdder;

/** Counts the BatchMutate requests a client sends and times their round trips. */
final class WriteStats implements WriteStatsMXBean {
  private final LongAdder requests = new LongAdder();
  private final LongAdder rows = new LongAdder();
  private final LongAdder roundTripNanos = new LongAdder();

  /** A sender that measures what {@code sender} sends. */
  WriteCoalescer.Sender timing(WriteCoalescer.Sender sender) {
    return (route, request, deadline) -> {
      long start = System.nanoTime();
      ListenableFuture<org.logbase.rpc.BatchMutateResponse> answer = sender.send(route, request, deadline);
      answer.addListener(() -> {
        roundTripNanos.add(System.nanoTime() - start);
        rows.add(request.getMutationsCount());
        requests.increment();
      }, MoreExecutors.directExecutor());
      return answer;
    };
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
  public long getRoundTripNanos() {
    return roundTripNanos.sum();
  }
}
