package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.SettableFuture;
import com.google.protobuf.ByteString;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.logbase.common.ErrorCode;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.BatchMutateRequest;
import org.logbase.rpc.BatchMutateResponse;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.TabletRef;
import org.logbase.testing.Await;

/** The coalescer against a sender whose requests the test answers by hand. */
class WriteCoalescerTest {
  private static final WriteCoalescer.Route ROUTE =
      new WriteCoalescer.Route("ts1:1", TabletRef.newBuilder().setTable("t").setTabletId(1).build());

  /** Requests in the order sent, each with the future the test completes. */
  private final List<Sent> sent = new ArrayList<>();
  private final ExecutorService callers = Executors.newCachedThreadPool();

  private record Sent(BatchMutateRequest request, SettableFuture<BatchMutateResponse> answer) {
    List<String> keys() {
      return request.getMutationsList().stream().map(m -> m.getKey().toStringUtf8()).toList();
    }
  }

  @AfterEach
  void stopCallers() {
    callers.shutdownNow();
  }

  private synchronized ListenableFuture<BatchMutateResponse> send(
      WriteCoalescer.Route route, BatchMutateRequest request, Deadline deadline) {
    SettableFuture<BatchMutateResponse> f = SettableFuture.create();
    sent.add(new Sent(request, f));
    return f;
  }

  private synchronized Sent sent(int i) {
    return sent.get(i);
  }

  private synchronized int sentCount() {
    return sent.size();
  }

  private WriteCoalescer coalescer(boolean enabled, int inFlight, int maxRows) {
    return new WriteCoalescer(this::send, enabled, inFlight, maxRows, 1 << 20);
  }

  private Future<Long> write(WriteCoalescer c, String key) {
    Mutation m = Mutation.newBuilder().setKey(ByteString.copyFrom(key, StandardCharsets.UTF_8)).build();
    return callers.submit(() -> c.write(ROUTE, m, Durability.HFLUSH, Deadline.after(30, TimeUnit.SECONDS)));
  }

  /** Answers request i with timestamps base, base + 1, ... */
  private void succeed(int i, long base) {
    BatchMutateResponse.Builder b = BatchMutateResponse.newBuilder();
    for (int j = 0; j < sent(i).request().getMutationsCount(); j++) {
      b.addTimestamps(base + j);
    }
    sent(i).answer().set(b.build());
  }

  private static StatusRuntimeException typed(ErrorCode code) {
    return RpcErrors.toStatus(code.exception("refused by the test"));
  }

  /** Sends "first" and leaves its request unanswered, so that later writes to the route wait. */
  private Future<Long> outstanding(WriteCoalescer c) {
    Future<Long> first = write(c, "first");
    Await.until("first request sent", () -> sentCount() == 1);
    return first;
  }

  /** Starts writes behind an outstanding request and returns once every one of them waits. */
  private List<Future<Long>> queued(WriteCoalescer c, String... keys) {
    List<Future<Long>> writes = new ArrayList<>();
    for (String k : keys) {
      writes.add(write(c, k));
    }
    Await.until(keys.length + " writes waiting", () -> c.waiting(ROUTE) == keys.length);
    return writes;
  }

  /** Answers the outstanding first request; the waiting writes then leave together as request 1. */
  private void answerFirst() {
    succeed(0, 1);
    Await.until("the waiting writes sent", () -> sentCount() == 2);
  }

  @Test
  void aLoneWriteLeavesAtOnce() throws Exception {
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> a = write(c, "a");
    Await.until("first request sent", () -> sentCount() == 1);
    assertEquals(List.of("a"), sent(0).keys());
    succeed(0, 42);
    assertEquals(42L, a.get(20, TimeUnit.SECONDS));
  }

  @Test
  void writesArrivingWhileARequestIsOutstandingLeaveTogether() throws Exception {
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> a = outstanding(c);
    // They cannot go before the first answer: in flight is limited to one.
    List<Future<Long>> waiting = queued(c, "b", "c", "d");
    assertEquals(1, sentCount(), "nothing leaves while one request is outstanding");
    succeed(0, 10);
    assertEquals(10L, a.get(20, TimeUnit.SECONDS));
    Await.until("second request sent", () -> sentCount() == 2);
    assertEquals(3, sent(1).keys().size());
    assertTrue(sent(1).keys().containsAll(List.of("b", "c", "d")));
    succeed(1, 100);
    List<Long> ts = new ArrayList<>();
    for (Future<Long> f : waiting) {
      ts.add(f.get(20, TimeUnit.SECONDS));
    }
    // Each caller gets the timestamp of its own position in the request.
    for (int i = 0; i < 3; i++) {
      String key = List.of("b", "c", "d").get(i);
      assertEquals(100L + sent(1).keys().indexOf(key), ts.get(i));
    }
  }

  @Test
  void batchesRespectTheRowLimit() throws Exception {
    WriteCoalescer c = coalescer(true, 1, 2);
    Future<Long> a = outstanding(c);
    List<Future<Long>> waiting = queued(c, "b", "c", "d");
    answerFirst();
    assertEquals(2, sent(1).keys().size());
    succeed(1, 10);
    Await.until("third request sent", () -> sentCount() == 3);
    assertEquals(1, sent(2).keys().size());
    succeed(2, 20);
    a.get(20, TimeUnit.SECONDS);
    for (Future<Long> f : waiting) {
      f.get(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aBatchRefusedForBadInputIsResentOneWriteAtATime() throws Exception {
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> first = outstanding(c);
    List<Future<Long>> batch = queued(c, "good", "bad");
    Future<Long> good = batch.get(0);
    Future<Long> bad = batch.get(1);
    answerFirst();
    assertEquals(2, sent(1).keys().size());
    assertTrue(sent(1).request().getRefuseIfPrepared(), "several callers' writes must not all wait on one row");
    sent(1).answer().setException(typed(ErrorCode.COLUMN_NOT_IN_SCHEMA));
    Await.until("each resent alone", () -> sentCount() == 4);
    for (int i = 2; i < 4; i++) {
      assertEquals(1, sent(i).keys().size());
      assertFalse(sent(i).request().getRefuseIfPrepared(), "alone, a write waits for its row");
      if (sent(i).keys().get(0).equals("bad")) {
        sent(i).answer().setException(typed(ErrorCode.COLUMN_NOT_IN_SCHEMA));
      } else {
        succeed(i, 77);
      }
    }
    assertEquals(1L, first.get(20, TimeUnit.SECONDS));
    assertEquals(77L, good.get(20, TimeUnit.SECONDS));
    ExecutionException e = assertThrows(ExecutionException.class, () -> bad.get(20, TimeUnit.SECONDS));
    StatusRuntimeException s = assertInstanceOf(StatusRuntimeException.class, e.getCause());
    assertEquals(ErrorCode.COLUMN_NOT_IN_SCHEMA.name(), s.getTrailers().get(RpcErrors.ERROR_CODE));
  }

  @Test
  void aBatchRefusedForARowOfAPreparedTransactionIsResentOneWriteAtATime() throws Exception {
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> first = outstanding(c);
    List<Future<Long>> batch = queued(c, "locked", "free");
    Future<Long> locked = batch.get(0);
    Future<Long> free = batch.get(1);
    answerFirst();
    sent(1).answer().setException(typed(ErrorCode.ROW_LOCKED));
    Await.until("each resent alone", () -> sentCount() == 4);
    succeed(2, 20);
    succeed(3, 30);
    assertTrue(locked.get(20, TimeUnit.SECONDS) > 0 && free.get(20, TimeUnit.SECONDS) > 0);
    first.get(20, TimeUnit.SECONDS);
  }

  @Test
  void aRoutingFailureReachesEveryWriterOfTheBatchWithoutResending() throws Exception {
    // The caller's retry loop looks the tablet up again; resending here would go to the same place.
    assertBatchFailureReachesEveryWriterUnsent(ErrorCode.NOT_SERVING_TABLET);
  }

  @Test
  void aBatchThatFailedAfterReachingTheServerIsNotResent() throws Exception {
    // An internal error may come after the rows reached the log: resending would write them twice.
    assertBatchFailureReachesEveryWriterUnsent(ErrorCode.INTERNAL);
  }

  private void assertBatchFailureReachesEveryWriterUnsent(ErrorCode code) throws Exception {
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> first = outstanding(c);
    List<Future<Long>> batch = queued(c, "b", "d");
    Future<Long> b = batch.get(0);
    Future<Long> d = batch.get(1);
    answerFirst();
    sent(1).answer().setException(typed(code));
    for (Future<Long> f : List.of(b, d)) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
      StatusRuntimeException s = assertInstanceOf(StatusRuntimeException.class, e.getCause());
      assertEquals(code.name(), s.getTrailers().get(RpcErrors.ERROR_CODE));
    }
    assertEquals(2, sentCount(), "nothing was sent again");
    assertEquals(1L, first.get(20, TimeUnit.SECONDS));
  }

  @Test
  void theNextBatchLeavesEvenWhenTheSenderThrows() throws Exception {
    WriteCoalescer c = new WriteCoalescer((route, request, deadline) -> {
      if (request.getMutations(0).getKey().toStringUtf8().equals("boom")) {
        throw new StatusRuntimeException(Status.UNAVAILABLE.withDescription("channel shut down"), new Metadata());
      }
      return send(route, request, deadline);
    }, true, 1, 100, 1 << 20);
    Future<Long> boom = write(c, "boom");
    ExecutionException e = assertThrows(ExecutionException.class, () -> boom.get(20, TimeUnit.SECONDS));
    assertInstanceOf(StatusRuntimeException.class, e.getCause());
    Future<Long> next = write(c, "next");
    Await.until("next request sent", () -> sentCount() == 1);
    succeed(0, 5);
    assertEquals(5L, next.get(20, TimeUnit.SECONDS));
  }

  @Test
  void requestsThatFailAtOnceSettleEveryWaitingWrite() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean();
    WriteCoalescer c = new WriteCoalescer((route, request, deadline) -> broken.get()
        ? com.google.common.util.concurrent.Futures.immediateFailedFuture(
            new StatusRuntimeException(Status.UNAVAILABLE.withDescription("channel shut down")))
        : send(route, request, deadline), true, 1, 1, 1 << 20);
    Future<Long> first = outstanding(c);
    List<Future<Long>> waiting = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      waiting.add(write(c, "w" + i));
    }
    Await.until("fifty writes waiting", () -> c.waiting(ROUTE) == 50);
    broken.set(true);
    succeed(0, 1);
    assertEquals(1L, first.get(20, TimeUnit.SECONDS));
    // One row per request: fifty requests, each failing as it is sent, all settled by one loop.
    for (Future<Long> f : waiting) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
      assertEquals(Status.Code.UNAVAILABLE, assertInstanceOf(StatusRuntimeException.class, e.getCause()).getStatus().getCode());
    }
    assertEquals(0, c.waiting(ROUTE));
  }

  @Test
  void aWriteWhoseCallerGaveUpIsNotSent() throws Exception {
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> first = outstanding(c);
    List<Future<Long>> batch = queued(c, "abandoned", "kept");
    Future<Long> abandoned = batch.get(0);
    Future<Long> kept = batch.get(1);
    abandoned.cancel(true); // interrupts the caller
    Await.until("the interrupted caller withdrew", () -> c.waiting(ROUTE) == 1);
    answerFirst();
    assertEquals(List.of("kept"), sent(1).keys());
    succeed(1, 9);
    assertEquals(9L, kept.get(20, TimeUnit.SECONDS));
    first.get(20, TimeUnit.SECONDS);
  }

  @Test
  void aWriteThatWaitedPastItsDeadlineIsNotSent() throws Exception {
    FakeTicker ticker = new FakeTicker();
    WriteCoalescer c = coalescer(true, 1, 100);
    Future<Long> first = outstanding(c);
    Mutation m = Mutation.newBuilder().setKey(ByteString.copyFromUtf8("late")).build();
    Future<Long> late = callers.submit(
        () -> c.write(ROUTE, m, Durability.HFLUSH, Deadline.after(60, TimeUnit.SECONDS, ticker)));
    Await.until("one write waiting", () -> c.waiting(ROUTE) == 1);
    ticker.advance(61, TimeUnit.SECONDS);
    succeed(0, 1);
    ExecutionException e = assertThrows(ExecutionException.class, () -> late.get(20, TimeUnit.SECONDS));
    assertEquals(Status.Code.DEADLINE_EXCEEDED,
        assertInstanceOf(StatusRuntimeException.class, e.getCause()).getStatus().getCode());
    assertEquals(1, sentCount(), "the expired write was dropped, not sent");
    first.get(20, TimeUnit.SECONDS);
  }

  private static final class FakeTicker extends Deadline.Ticker {
    private final java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public long nanoTime() {
      return nanos.get();
    }

    void advance(long amount, TimeUnit unit) {
      nanos.addAndGet(unit.toNanos(amount));
    }
  }

  @Test
  void disabledSendsEveryWriteOnItsOwn() throws Exception {
    WriteCoalescer c = coalescer(false, 1, 100);
    Future<Long> a = write(c, "a");
    Future<Long> b = write(c, "b");
    Await.until("both sent", () -> sentCount() == 2);
    succeed(0, 1);
    succeed(1, 2);
    assertEquals(3L, a.get(20, TimeUnit.SECONDS) + b.get(20, TimeUnit.SECONDS));
  }
}
