package org.logbase.bench.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.logbase.common.Threads;

/**
 * A poor man's profiler: takes the stack of the threads whose names start with a prefix every few
 * milliseconds and counts where they were. Enough to tell a thread waiting for an HDFS ack from one
 * burning CPU in the index or in futures, which is what a throughput shortfall needs explained.
 * Samples accumulate across {@link #start}/{@link #stop} pairs.
 *
 * <p>It reads stacks through a {@link ThreadMXBean}: this JVM's, or another process's over JMX
 * (see {@link ServerProbe}), so a tablet server's log writer is profiled exactly like the
 * engine benchmark's.
 */
final class StackSampler {
  /**
   * Where a log writer thread waits for work (parked in its queue's take): its share of the samples
   * says how much of the time the log had nothing to write, i.e. was not the bottleneck.
   */
  static final String LOG_WRITER_IDLE = "LogWriter.writeBatches > Unsafe.park";

  private final ThreadMXBean threads;
  private final String prefix;
  private final long intervalMillis;
  private final Map<String, Integer> counts = new HashMap<>();
  private final AtomicBoolean running = new AtomicBoolean();
  private Thread sampler;
  private int samples;

  /** Samples threads of this JVM. */
  StackSampler(String threadNamePrefix, long intervalMillis) {
    this(ManagementFactory.getThreadMXBean(), threadNamePrefix, intervalMillis);
  }

  StackSampler(ThreadMXBean threads, String threadNamePrefix, long intervalMillis) {
    this.threads = threads;
    this.prefix = threadNamePrefix;
    this.intervalMillis = intervalMillis;
  }

  void start() {
    long[] targets = Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds()))
        .filter(t -> t != null && t.getThreadName().startsWith(prefix))
        .mapToLong(ThreadInfo::getThreadId)
        .toArray();
    if (targets.length == 0) {
      throw new IllegalStateException("no thread named " + prefix + "* to sample");
    }
    running.set(true);
    sampler = Threads.newDaemon("stack-sampler", () -> {
      while (running.get()) {
        for (ThreadInfo t : threads.getThreadInfo(targets, Integer.MAX_VALUE)) {
          if (t != null) { // null: the thread ended
            record(t.getThreadState(), t.getStackTrace());
          }
        }
        try {
          Thread.sleep(intervalMillis);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.start();
  }

  void stop() {
    running.set(false);
    try {
      sampler.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void record(Thread.State state, StackTraceElement[] stack) {
    if (stack.length == 0) {
      return; // the thread ended
    }
    samples++;
    counts.merge(state + "  " + where(stack), 1, Integer::sum);
  }

  /**
   * Names a sample by the innermost frame outside the JDK (where the thread really is: a Hadoop
   * wait, an index method), the JDK frame it was in if any (an unpark, a CRC), and the innermost
   * LogBase frame (which part of ours called it).
   */
  private static String where(StackTraceElement[] stack) {
    String inner = null;
    String ours = null;
    for (StackTraceElement f : stack) {
      if (inner == null && !isJdk(f)) {
        inner = shortName(f);
      }
      if (ours == null && f.getClassName().startsWith("org.logbase.")) {
        ours = shortName(f);
      }
    }
    String top = shortName(stack[0]);
    if (inner == null) {
      return top;
    }
    String s = isJdk(stack[0]) ? inner + " > " + top : inner;
    return ours == null || ours.equals(inner) ? s : s + " <- " + ours;
  }

  private static boolean isJdk(StackTraceElement f) {
    String c = f.getClassName();
    return c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.");
  }

  private static String shortName(StackTraceElement f) {
    String c = f.getClassName();
    return c.substring(c.lastIndexOf('.') + 1) + "." + f.getMethodName();
  }

  /** The share (0..1) of all samples whose place, as {@link #print} names it, contains {@code place}. */
  synchronized double share(String place) {
    int n = 0;
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      if (e.getKey().contains(place)) {
        n += e.getValue();
      }
    }
    return (double) n / Math.max(1, samples);
  }

  /** Prints the most frequent places, with their share of all samples. */
  synchronized void print(String title, int top) {
    System.out.printf("stack samples of '%s*' threads, %s (%d samples every %d ms):%n", prefix, title, samples,
        intervalMillis);
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(top)
        .forEach(e -> System.out.printf("  %5.1f%%  %s%n", 100.0 * e.getValue() / Math.max(1, samples), e.getKey()));
  }
}
