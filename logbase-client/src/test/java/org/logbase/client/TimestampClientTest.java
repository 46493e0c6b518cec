package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import io.grpc.Context;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.client.fake.FakeCluster;
import org.logbase.client.fake.FakeMaster;
import org.logbase.common.ClusterConfig;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.TimestampRequests;

/** Batching of concurrent timestamp requests, against fake masters that count the calls they get. */
@Timeout(60)
class TimestampClientTest {
  @Test
  void manyThreadsShareFewRequests() throws Exception {
    int threads = 16;
    int perThread = 1000;
    try (FakeCluster cluster = FakeCluster.start(1, 0);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig())) {
      List<long[]> taken = onThreads(threads, i -> {
        long[] mine = new long[perThread];
        for (int k = 0; k < perThread; k++) {
          mine[k] = client.timestamps().next();
        }
        return mine;
      });

      Set<Long> unique = new HashSet<>();
      for (long[] mine : taken) {
        for (int k = 0; k < mine.length; k++) {
          assertTrue(k == 0 || mine[k] > mine[k - 1], "each thread's timestamps increase");
          unique.add(mine[k]);
        }
      }
      assertEquals(threads * perThread, unique.size(), "no timestamp handed out twice");
      int calls = cluster.master(0).timestampCalls().size();
      System.out.printf("%d timestamps from %d threads in %d GetTimestamps calls (%.1f per call)%n",
          unique.size(), threads, calls, (double) unique.size() / calls);
      assertTrue(calls <= unique.size() / 4, calls + " calls for " + unique.size() + " timestamps");
    }
  }

  @Test
  void callsArrivingWhileARequestIsInFlightShareTheNextOne() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(1, 0);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig())) {
      FakeMaster master = cluster.master(0);
      TimestampClient timestamps = client.timestamps();
      CountDownLatch gate = master.holdTimestamps();
      CompletableFuture<Long> firstCall = CompletableFuture.supplyAsync(timestamps::next);
      awaitUntil("the first call reached the master", () -> master.timestampCalls().size() == 1);
      ExecutorService pool = Executors.newFixedThreadPool(15);
      try {
        List<CompletableFuture<Long>> later = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
          later.add(CompletableFuture.supplyAsync(timestamps::next, pool));
        }
        awaitUntil("15 calls queued", () -> timestamps.queued() == 15);
        gate.countDown();

        long first = firstCall.get();
        Set<Long> unique = new HashSet<>();
        for (CompletableFuture<Long> f : later) {
          long ts = f.get();
          assertTrue(ts > first, "fetched after the first call's timestamp");
          unique.add(ts);
        }
        assertEquals(15, unique.size());
        assertEquals(List.of(1, 15), master.timestampCalls(), "one call for the first, one for the 15 queued");
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aRangeIsConsecutiveAndItsSizeIsChecked() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(1, 0);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig())) {
      long before = client.timestamps().next();
      long[] range = client.timestamps().next(5);
      assertEquals(5, range.length);
      assertTrue(range[0] > before);
      for (int i = 1; i < range.length; i++) {
        assertEquals(range[0] + i, range[i]);
      }
      assertEquals(TimestampRequests.MAX_COUNT, client.timestamps().next(TimestampRequests.MAX_COUNT).length);
      assertThrows(InvalidRequestException.class, () -> client.timestamps().next(0));
      assertThrows(InvalidRequestException.class, () -> client.timestamps().next(TimestampRequests.MAX_COUNT + 1));
    }
  }

  @Test
  void aSenderWhoseGrpcContextEndsStillFetchesForTheRequestsBatchedWithIt() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(1, 0);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig())) {
      FakeMaster master = cluster.master(0);
      TimestampClient timestamps = client.timestamps();
      CountDownLatch gate = master.holdTimestamps();
      CompletableFuture<Long> first = CompletableFuture.supplyAsync(timestamps::next);
      awaitUntil("the first call reached the master", () -> master.timestampCalls().size() == 1);
      // Queued behind it: a caller in a context that ends (a server's request whose client left),
      // then another. The first of them sends the next call, for both.
      Context.CancellableContext leaving = Context.current().withCancellation();
      CompletableFuture<Long> sender = CompletableFuture.supplyAsync(() -> inContext(leaving, timestamps::next));
      awaitUntil("the sender queued", () -> timestamps.queued() == 1);
      CompletableFuture<Long> other = CompletableFuture.supplyAsync(timestamps::next);
      awaitUntil("the other queued", () -> timestamps.queued() == 2);
      leaving.cancel(null);
      gate.countDown();

      long a = first.get();
      long b = other.get();
      assertTrue(b > a, "the request batched with the leaving sender got its timestamp");
      assertTrue(sender.get() > a);
      assertEquals(2, master.timestampCalls().size(), "one call for the two queued requests");
    }
  }

  @Test
  void followsTheActiveMaster() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(2, 0);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig())) {
      TimestampClient timestamps = client.timestamps();
      long fromFirst = timestamps.next();

      cluster.activate(1);
      long fromSecond = timestamps.next();
      assertTrue(fromSecond > fromFirst);
      assertEquals(1, cluster.master(1).timestampCalls().size());
    }
  }

  @Test
  void callsFailingAtTheirDeadlineLeaveNoneStuckBehind() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(1, 0);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig().with(ClusterConfig.RPC_DEADLINE_MS, 1000))) {
      TimestampClient timestamps = client.timestamps();
      long before = timestamps.next();

      // No master at all: every waiting call fails with the retriable error at its deadline.
      cluster.deactivateAll();
      List<Throwable> failures = onThreads(4, i -> {
        try {
          timestamps.next();
          return null;
        } catch (RuntimeException e) {
          return e;
        }
      });
      failures.forEach(e -> assertTrue(e instanceof NotActiveMasterException, String.valueOf(e)));

      // Calls go through again once a master is back: nothing waits for a sender that gave up.
      cluster.activate(0);
      long after = 0;
      while (after == 0) {
        try {
          after = timestamps.next();
        } catch (NotActiveMasterException stillLookingUp) {
          // A short deadline on a busy machine: try again; a stuck queue would hang here instead.
        }
      }
      assertTrue(after > before);
    }
  }

  @FunctionalInterface
  private interface Work<T> {
    T run(int thread) throws Exception;
  }

  /** Runs {@code call} with {@code context} attached. */
  private static long inContext(Context context, LongSupplier call) {
    Context previous = context.attach();
    try {
      return call.getAsLong();
    } finally {
      context.detach(previous);
    }
  }

  /** Runs {@code work} on {@code n} threads at once and returns what each returned. */
  private static <T> List<T> onThreads(int n, Work<T> work) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<CompletableFuture<T>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int id = i;
        futures.add(CompletableFuture.supplyAsync(() -> {
          try {
            return work.run(id);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, pool));
      }
      List<T> results = new ArrayList<>();
      for (CompletableFuture<T> f : futures) {
        try {
          results.add(f.get());
        } catch (ExecutionException e) {
          throw new AssertionError("thread failed", e.getCause());
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static void awaitUntil(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s: " + what);
      }
      TimeUnit.MILLISECONDS.sleep(5); // polling interval; the condition decides
    }
  }
}
