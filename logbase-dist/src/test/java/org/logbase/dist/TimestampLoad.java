package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.logbase.client.TimestampClient;

/**
 * Threads that take timestamps one at a time through a {@link TimestampClient} until stopped,
 * recording when each call started and ended, so a test can tell which timestamps were taken before
 * an event and which after it, and how long none could be taken.
 */
final class TimestampLoad {
  /** One timestamp and when (System.nanoTime) the call for it started and returned. */
  record Taken(long ts, long startNanos, long endNanos) {}

  private final List<List<Taken>> taken = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();

  TimestampLoad(TimestampClient timestamps, int threadCount) {
    for (int i = 0; i < threadCount; i++) {
      List<Taken> mine = new CopyOnWriteArrayList<>();
      taken.add(mine);
      threads.add(new Thread(() -> {
        try {
          while (!stop.get()) {
            long start = System.nanoTime();
            long ts = timestamps.next();
            mine.add(new Taken(ts, start, System.nanoTime()));
          }
        } catch (Throwable t) {
          failures.add(t);
        }
      }, "timestamps-" + i));
    }
    threads.forEach(Thread::start);
  }

  /** Waits until every thread took at least {@code n} timestamps that satisfy {@code which}. */
  void awaitEach(int n, Predicate<Taken> which, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!taken.stream().allMatch(mine -> mine.stream().filter(which).count() >= n)) {
      if (!failures.isEmpty()) {
        throw new AssertionError("taking timestamps failed", failures.get(0));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not every thread took " + n + " timestamps within " + max);
      }
      TimeUnit.MILLISECONDS.sleep(20); // polling interval; the condition decides
    }
  }

  /** Stops the threads and returns what each took, in order. */
  List<List<Taken>> stop() throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new AssertionError("taking timestamps failed", failures.get(0));
    }
    return taken;
  }

  /** No timestamp was handed out twice, and each thread's timestamps strictly increase. */
  static void assertUniqueAndIncreasing(List<List<Taken>> perThread) {
    Set<Long> seen = new HashSet<>();
    int total = 0;
    for (List<Taken> mine : perThread) {
      for (int i = 0; i < mine.size(); i++) {
        assertTrue(i == 0 || mine.get(i).ts() > mine.get(i - 1).ts(), "a thread's timestamps went backwards");
        seen.add(mine.get(i).ts());
        total++;
      }
    }
    assertEquals(total, seen.size(), "no timestamp handed out twice");
  }

  /** The longest time in which no thread got a timestamp. */
  static Duration longestGap(List<List<Taken>> perThread) {
    long[] ends = perThread.stream().flatMap(List::stream).mapToLong(Taken::endNanos).sorted().toArray();
    long gap = 0;
    for (int i = 1; i < ends.length; i++) {
      gap = Math.max(gap, ends[i] - ends[i - 1]);
    }
    return Duration.ofNanos(gap);
  }
}
