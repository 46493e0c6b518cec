package org.logbase.master;

import org.logbase.testing.Await;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.TimestampRequest;

/**
 * Threads that take timestamp ranges of random sizes from one master over gRPC, each recording its
 * ranges in order, until stopped or until the master stops answering (closed, or no longer active).
 */
final class TimestampTakers {
  private final List<List<Range>> taken = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> unexpected = new CopyOnWriteArrayList<>();
  private final AtomicInteger ranges = new AtomicInteger();
  private final AtomicBoolean stop = new AtomicBoolean();

  private TimestampTakers(MasterAdmin master, int threadCount, int maxCount) {
    for (int i = 0; i < threadCount; i++) {
      List<Range> mine = new CopyOnWriteArrayList<>();
      taken.add(mine);
      SplittableRandom rng = new SplittableRandom(i);
      threads.add(new Thread(() -> takeUntilRefused(master, mine, rng, maxCount), "taker-" + i));
    }
    threads.forEach(Thread::start);
  }

  /** Starts {@code threadCount} takers asking for 1 .. {@code maxCount} timestamps per request. */
  static TimestampTakers start(MasterAdmin master, int threadCount, int maxCount) {
    return new TimestampTakers(master, threadCount, maxCount);
  }

  private void takeUntilRefused(MasterAdmin master, List<Range> mine, SplittableRandom rng, int maxCount) {
    while (!stop.get()) {
      int count = rng.nextInt(1, maxCount + 1);
      try {
        mine.add(Range.of(master.call(s -> s.getTimestamps(TimestampRequest.newBuilder().setCount(count).build()))));
        ranges.incrementAndGet();
      } catch (LogBaseException e) {
        if (!RpcErrors.isRetriable(e)) {
          unexpected.add(e); // anything but "not active" or "unavailable" is a bug
        }
        return;
      } catch (Throwable t) {
        unexpected.add(t);
        return;
      }
    }
  }

  /** Waits until the takers got at least {@code n} ranges between them. */
  TimestampTakers awaitRanges(int n) {
    Await.until(n + " timestamp ranges", () -> ranges.get() >= n || !unexpected.isEmpty());
    return this;
  }

  /** Stops the takers (if the master has not stopped them already) and returns each one's ranges. */
  List<List<Range>> stop() throws InterruptedException {
    stop.set(true);
    return awaitEnd();
  }

  /** Waits until every taker was refused by the master, and returns each one's ranges. */
  List<List<Range>> awaitEnd() throws InterruptedException {
    for (Thread t : threads) {
      t.join(Await.DEFAULT.toMillis());
      if (t.isAlive()) {
        throw new AssertionError(t.getName() + " is still taking timestamps");
      }
    }
    if (!unexpected.isEmpty()) {
      throw new AssertionError("a taker failed unexpectedly", unexpected.get(0));
    }
    return taken;
  }
}
