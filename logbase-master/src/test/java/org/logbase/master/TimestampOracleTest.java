package org.logbase.master;

import org.logbase.testing.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.TimestampRequests;
import org.logbase.common.TimestampsUnavailableException;
import org.logbase.common.ZkPaths;

/**
 * The oracle on its own, against a real ZooKeeper, with clocks the test controls and a bound store
 * whose writes the test can hold back.
 */
class TimestampOracleTest {
  private static final AtomicInteger ROOTS = new AtomicInteger();
  private static final BoundPolicy POLICY = new BoundPolicy(3000, 1000);
  private static final Duration LONG_WAIT = Duration.ofSeconds(20);
  private static final int MAX = TimestampRequests.MAX_COUNT;
  private static TestingServer zkServer;
  private static CuratorFramework zk;
  private final List<TimestampOracle> oracles = new ArrayList<>();
  private GatedStore store;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    zkServer = new TestingServer(true);
    zk = CuratorFrameworkFactory.newClient(zkServer.getConnectString(), new RetryOneTime(100));
    zk.start();
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    zk.close();
    zkServer.close();
  }

  @BeforeEach
  void newRoot() {
    store = new GatedStore(new TimestampBoundZnode(zk, new ZkPaths("/oracle-" + ROOTS.incrementAndGet())));
  }

  @AfterEach
  void closeOracles() {
    store.open();
    oracles.forEach(TimestampOracle::close);
  }

  private TimestampOracle oracle(AtomicLong clock) {
    TimestampOracle o = new TimestampOracle(store, clock::get, POLICY);
    oracles.add(o);
    return o;
  }

  @Test
  void callersRacingTheCounterAheadOfTheClockGetIncreasingDisjointRanges() throws Exception {
    // Up to 65536 timestamps per request from 8 threads run the counter seconds ahead of the clock,
    // so renewals are asked for by requests and some requests wait for them.
    AtomicLong clock = new AtomicLong(System.currentTimeMillis());
    TimestampOracle oracle = oracle(clock);
    oracle.activate();
    List<List<Range>> taken = new ArrayList<>();
    List<CompletableFuture<Void>> callers = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      List<Range> mine = new ArrayList<>();
      taken.add(mine);
      SplittableRandom rng = new SplittableRandom(t);
      callers.add(CompletableFuture.runAsync(() -> {
        for (int i = 0; i < 1500; i++) {
          int count = rng.nextInt(1, MAX + 1);
          mine.add(new Range(next(oracle, count, LONG_WAIT), count));
          clock.accumulateAndGet(System.currentTimeMillis(), Math::max);
        }
      }, runnable -> new Thread(runnable).start()));
    }
    CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get();

    taken.forEach(Range::assertIncreasing);
    Range.assertDisjoint(taken);
    assertTrue(Range.highest(taken) < store.read().orElseThrow().bound());
    assertTrue(store.writes() > 2, "renewed " + store.writes() + " times");
  }

  @Test
  void neverReachesThePersistedBoundWhileItCannotBeRenewed() throws Exception {
    AtomicLong frozen = new AtomicLong(System.currentTimeMillis());
    TimestampOracle oracle = oracle(frozen);
    oracle.activate();
    long bound = store.read().orElseThrow().bound();
    store.close(); // every renewal now hangs in ZooKeeper, as far as the oracle can tell

    List<List<Range>> taken = new ArrayList<>();
    List<Throwable> endings = new CopyOnWriteArrayList<>();
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      List<Range> mine = new ArrayList<>();
      taken.add(mine);
      callers.add(new Thread(() -> {
        try {
          while (true) {
            mine.add(new Range(oracle.next(MAX, Duration.ofMillis(100)), MAX));
          }
        } catch (Throwable e) {
          endings.add(e);
        }
      }));
    }
    callers.forEach(Thread::start);
    for (Thread c : callers) {
      c.join();
    }

    assertEquals(8, endings.size());
    endings.forEach(e -> assertTrue(e instanceof TimestampsUnavailableException, e.toString()));
    Range.assertDisjoint(taken);
    long highest = Range.highest(taken);
    assertTrue(highest < bound, "handed out " + highest + " with the bound at " + bound);
    assertTrue(highest >= bound - MAX, "used the timestamps up to the bound: " + (bound - highest) + " left");
    assertEquals(1, store.writes(), "nothing but the activation's write got through");

    // A request that needs more waits for the renewal and gets it once ZooKeeper answers again.
    CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> next(oracle, MAX, LONG_WAIT));
    store.open();
    long first = waiting.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
    assertTrue(first > highest);
    assertTrue(first + MAX - 1 < store.read().orElseThrow().bound());
  }

  @Test
  void tryNextNeverWaitsNorPassesTheBoundAndAsksForTheRenewalItNeeds() throws Exception {
    AtomicLong frozen = new AtomicLong(System.currentTimeMillis());
    TimestampOracle oracle = oracle(frozen);
    oracle.activate();
    long bound = store.read().orElseThrow().bound();
    store.close(); // renewals hang

    long highest = -1;
    long answered = 0;
    long mostPossible = (bound - HybridTimestamp.of(frozen.get(), 0)) / MAX + 1;
    while (true) {
      long first = oracle.tryNext(MAX);
      if (first == TimestampOracle.WOULD_WAIT) {
        break;
      }
      assertTrue(first > highest);
      highest = first + MAX - 1;
      answered++;
      assertTrue(answered <= mostPossible, "stops at the bound");
    }
    assertTrue(highest < bound, "handed out " + highest + " with the bound at " + bound);
    assertEquals(1, store.writes(), "nothing but the activation's write got through");

    store.open(); // the renewal tryNext asked for now lands, and tryNext answers again
    long[] after = new long[1];
    Await.until("tryNext answers after the renewal", () -> (after[0] = oracle.tryNext(MAX)) != TimestampOracle.WOULD_WAIT);
    assertTrue(after[0] > highest);
    assertTrue(store.writes() >= 2);
  }

  @Test
  void aClockJumpAheadWaitsForARenewalInsteadOfPassingTheBound() throws Exception {
    AtomicLong clock = new AtomicLong(System.currentTimeMillis());
    TimestampOracle oracle = oracle(clock);
    oracle.activate();
    long before = oracle.next(1, LONG_WAIT);
    long oldBound = store.read().orElseThrow().bound();

    long jumped = clock.addAndGet(TimeUnit.HOURS.toMillis(1));
    long after = oracle.next(1, LONG_WAIT);

    assertTrue(after > before);
    assertTrue(after >= HybridTimestamp.of(jumped, 0), "follows the clock: " + HybridTimestamp.toString(after));
    assertTrue(after > oldBound);
    assertTrue(after < store.read().orElseThrow().bound());
  }

  @Test
  void aNewOracleWithItsClockBehindStartsAboveTheOldOneWhichThenStops() throws Exception {
    AtomicLong oldClock = new AtomicLong(System.currentTimeMillis());
    TimestampOracle old = oracle(oldClock);
    old.activate();
    List<Long> fromOld = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      fromOld.add(old.next(1, LONG_WAIT));
    }
    long oldBound = store.read().orElseThrow().bound();

    // The old master has not noticed it lost its role (a long pause, say) when the new one takes over.
    AtomicLong behind = new AtomicLong(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1));
    TimestampOracle successor = oracle(behind);
    successor.activate();
    long first = successor.next(1, LONG_WAIT);
    assertTrue(first > oldBound, "starts strictly above the bound it found");

    // The old oracle may use up what is left below its bound, but its next renewal fails and it stops.
    oldClock.addAndGet(POLICY.leadMs() - POLICY.headroomMs() / 2);
    Await.until("the old oracle stops", () -> {
      try {
        fromOld.add(old.next(1, LONG_WAIT));
        return false;
      } catch (NotActiveMasterException stopped) {
        return true;
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    assertTrue(fromOld.stream().allMatch(ts -> ts < first), "every old timestamp is below the new oracle's first");
    assertTrue(successor.next(1, LONG_WAIT) > first, "the new oracle goes on");
  }

  @Test
  void deactivationStopsAtOnceAndFailsWaitingRequests() throws Exception {
    AtomicLong frozen = new AtomicLong(System.currentTimeMillis());
    TimestampOracle oracle = oracle(frozen);
    oracle.activate();
    store.close();
    CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> {
      while (true) {
        next(oracle, MAX, LONG_WAIT); // until one has to wait for the renewal that never comes
      }
    });
    Await.until("a request waits for a renewal", () -> waiting.isDone() || aRequestWaitsInTheOracle());

    oracle.deactivate();

    ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(20, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof NotActiveMasterException, e.getCause().toString());
    assertThrows(NotActiveMasterException.class, () -> oracle.next(1, LONG_WAIT));
  }

  /** Whether some request is blocked inside the oracle (waiting for a bound renewal). */
  private static boolean aRequestWaitsInTheOracle() {
    return Thread.getAllStackTraces().entrySet().stream().anyMatch(e ->
        e.getKey().getState() == Thread.State.TIMED_WAITING && List.of(e.getValue()).stream()
            .anyMatch(f -> f.getClassName().equals(TimestampOracle.class.getName()) && f.getMethodName().equals("next")));
  }

  private static long next(TimestampOracle oracle, int count, Duration wait) {
    try {
      return oracle.next(count, wait);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** A bound store whose writes block while the gate is closed, and which counts writes that got through. */
  private static final class GatedStore implements TimestampBoundStore {
    private final TimestampBoundStore delegate;
    private boolean closed; // guarded by this
    private int writes; // guarded by this

    GatedStore(TimestampBoundStore delegate) {
      this.delegate = delegate;
    }

    synchronized void close() {
      closed = true;
    }

    synchronized void open() {
      closed = false;
      notifyAll();
    }

    synchronized int writes() {
      return writes;
    }

    @Override
    public boolean connected() {
      return delegate.connected();
    }

    @Override
    public Optional<Versioned> read() throws Exception {
      return delegate.read();
    }

    @Override
    public int write(long bound, int expectedVersion) throws Exception {
      synchronized (this) {
        while (closed) {
          wait();
        }
      }
      int version = delegate.write(bound, expectedVersion);
      synchronized (this) {
        writes++;
      }
      return version;
    }
  }
}
