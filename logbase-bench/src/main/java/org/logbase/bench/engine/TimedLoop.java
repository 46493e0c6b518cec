package org.logbase.bench.engine;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.common.Threads;

/**
 * Runs an operation in a loop on several threads: first for a warm-up that is not counted (JIT,
 * connections, pipelines), then for a measured window. Only what completes inside the window counts,
 * so throughput is items / window length with no start-up or drain effects.
 */
public final class TimedLoop {
  /** One step of a thread's loop; returns how many items (records, gets) it completed. */
  @FunctionalInterface
  public interface Op {
    int run(int thread, SplittableRandom rng) throws Exception;
  }

  /**
   * What the window measured.
   *
   * @param cpuCores average number of cores this JVM kept busy (an in-process MiniDFSCluster included, an
   *     external file system not)
   * @param steal the share of the machine's CPU time its hypervisor gave to others meanwhile ({@link
   *     CpuSteal}; NaN if unknown)
   */
  public record Result(long items, double seconds, double cpuCores, double steal) {
    public double perSecond() {
      return items / seconds;
    }
  }

  private final String name;
  private final int threads;
  private final long seed;
  private Duration warmup = Duration.ofSeconds(2);
  private Duration window = Duration.ofSeconds(10);
  private Runnable atWindowStart = () -> {};
  private Runnable atWindowEnd = () -> {};

  /**
   * @param seed thread i draws from {@code new SplittableRandom(seed + i)}: two loops with the same
   *     seed and thread count pick the same items in the same order
   */
  public TimedLoop(String name, int threads, long seed) {
    this.name = name;
    this.threads = threads;
    this.seed = seed;
  }

  public TimedLoop warmup(Duration d) {
    this.warmup = d;
    return this;
  }

  public TimedLoop window(Duration d) {
    this.window = d;
    return this;
  }

  /** Runs on the measuring thread right when the window opens / closes (e.g. to read counters). */
  public TimedLoop around(Runnable start, Runnable end) {
    this.atWindowStart = start;
    this.atWindowEnd = end;
    return this;
  }

  public Result run(Op op) throws Exception {
    LongAdder done = new LongAdder();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    for (int i = 0; i < threads; i++) {
      int id = i;
      Thread t = Threads.newDaemon(name + "-" + i, () -> {
        SplittableRandom rng = new SplittableRandom(seed + id);
        try {
          while (!stop.get()) {
            done.add(op.run(id, rng));
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          stop.set(true);
        }
      });
      workers.add(t);
    }
    workers.forEach(Thread::start);
    try {
      sleep(warmup, failure);
      long items0 = done.sum();
      long cpu0 = processCpuNanos();
      long[] steal0 = CpuSteal.now();
      long t0 = System.nanoTime();
      atWindowStart.run();
      sleep(window, failure);
      long items1 = done.sum();
      long t1 = System.nanoTime();
      long cpu1 = processCpuNanos();
      long[] steal1 = CpuSteal.now();
      atWindowEnd.run();
      return new Result(items1 - items0, (t1 - t0) / 1e9, (double) (cpu1 - cpu0) / (t1 - t0),
          CpuSteal.share(steal0, steal1));
    } finally {
      stop.set(true);
      for (Thread t : workers) {
        t.join();
      }
      Throwable f = failure.get();
      if (f != null) {
        throw new IllegalStateException(name + " failed: " + f, f);
      }
    }
  }

  private static void sleep(Duration d, AtomicReference<Throwable> failure) throws InterruptedException {
    long end = System.nanoTime() + d.toNanos();
    while (failure.get() == null) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return;
      }
      Thread.sleep(Math.min(100, Math.max(1, left / 1_000_000)));
    }
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
