package org.logbase.bench.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which thread pools of this JVM burn the CPU: per-thread CPU time read at {@link #start} and
 * {@link #stop} and summed by pool ({@link ServerProbe#group}), accumulated across start/stop pairs.
 * With a whole cluster in one JVM it tells client, RPC, log writer and ZooKeeper work apart.
 */
public final class ThreadCpuProfile {
  private final String name;
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  /** Per pool: CPU nanoseconds in the windows so far, and the most threads seen in a window. */
  private final Map<String, double[]> byGroup = new TreeMap<>();
  private Map<Long, Long> threadNanos0;
  private long processNanos0;
  private long wall0;
  private long processNanos;
  private long wallNanos;
  private long ops;

  public ThreadCpuProfile(String name) {
    this.name = name;
  }

  /** A thread's pool and the CPU time it used so far. */
  record ThreadCpu(String group, long nanos) {}

  public void start() {
    threadNanos0 = new HashMap<>();
    snapshot(threads).forEach((id, t) -> threadNanos0.put(id, t.nanos()));
    processNanos0 = TimedLoop.processCpuNanos();
    wall0 = System.nanoTime();
  }

  /** Ends a window; {@link #count} adds the operations it completed. */
  public void stop() {
    Map<Long, ThreadCpu> now = snapshot(threads);
    long wall = System.nanoTime() - wall0;
    processNanos += TimedLoop.processCpuNanos() - processNanos0;
    wallNanos += wall;
    Map<String, Integer> counts = new HashMap<>();
    now.forEach((id, t) -> {
      // A thread born in the window counts from zero.
      byGroup.computeIfAbsent(t.group(), g -> new double[2])[0] += t.nanos() - threadNanos0.getOrDefault(id, 0L);
      counts.merge(t.group(), 1, Integer::sum);
    });
    counts.forEach((g, n) -> byGroup.get(g)[1] = Math.max(byGroup.get(g)[1], n));
  }

  /** Adds operations completed in a window, for the CPU per operation. */
  public void count(long windowOps) {
    ops += windowOps;
  }

  /** Pool and CPU time of every live thread of a JVM (this one, or another over JMX), by thread id. */
  static Map<Long, ThreadCpu> snapshot(com.sun.management.ThreadMXBean threads) {
    long[] ids = threads.getAllThreadIds();
    ThreadInfo[] infos = threads.getThreadInfo(ids);
    long[] nanos = threads.getThreadCpuTime(ids);
    Map<Long, ThreadCpu> out = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (infos[i] != null && nanos[i] >= 0) {
        out.put(ids[i], new ThreadCpu(ServerProbe.group(infos[i].getThreadName()), nanos[i]));
      }
    }
    return out;
  }

  /** Prints cores and microseconds of CPU per operation by pool, busiest first. */
  public void print() {
    double seconds = wallNanos / 1e9;
    Map<String, double[]> cores = new TreeMap<>();
    byGroup.forEach((g, v) -> cores.put(g, new double[] {v[0] / 1e9 / seconds, v[1]}));
    Report.heading(String.format("CPU by thread pool, %s: %.1f s, %,d ops, %.2f cores, %.0f us CPU per op", name,
        seconds, ops, processNanos / 1e9 / seconds, processNanos / 1e3 / Math.max(1, ops)));
    table("threads", cores, processNanos / 1e9 / seconds, ops / seconds).print();
  }

  /**
   * A table of the busiest pools: {@code cores} maps pool -> {cores, threads}; the process's CPU not
   * in any Java thread (GC and JIT compiler threads) is a line of its own.
   *
   * @param opsPerSecond with a positive rate, a column of microseconds of CPU per operation
   */
  static Report table(String header, Map<String, double[]> cores, double processCores, double opsPerSecond) {
    boolean perOp = opsPerSecond > 0;
    double sum = cores.values().stream().mapToDouble(v -> v[0]).sum();
    Report t = perOp ? new Report(header, "threads", "cpu cores", "us cpu/op") : new Report(header, "threads", "cpu cores");
    cores.entrySet().stream()
        .filter(e -> e.getValue()[0] >= 0.005)
        .sorted((x, y) -> Double.compare(y.getValue()[0], x.getValue()[0]))
        .forEach(e -> row(t, e.getKey(), (long) e.getValue()[1], e.getValue()[0], opsPerSecond));
    row(t, "(GC, JIT)", "", processCores - sum, opsPerSecond);
    return t;
  }

  private static void row(Report t, String pool, Object threads, double cores, double opsPerSecond) {
    if (opsPerSecond > 0) {
      t.row(pool, threads, cores, cores * 1e6 / opsPerSecond);
    } else {
      t.row(pool, threads, cores);
    }
  }
}
