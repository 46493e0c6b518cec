package org.logbase.sorted;

import java.io.Closeable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.logbase.common.Threads;

/**
 * The threads that read a scan's next blocks while the scan checks and decodes the ones it has
 * ({@link ScanBlocks}), so that reading (the HDFS client's receive and copy) and the scan's own
 * work overlap. Servers run without it by default ({@code sorted.scan.read.ahead.blocks} 0): on 2
 * cores with a local DataNode, handing each block to another thread cost more than the overlap
 * saved (docs/benchmarks.md). At most {@link #threads} scans read ahead at once; a scan that
 * finds them all busy reads its blocks itself, as it does with read-ahead off. Each scan holds at
 * most {@link #depth} blocks read ahead. A read-ahead whose scan takes none of them for {@link
 * #idleNanos} (its client reads slowly, or waits) lets go of its thread, so that slow scans do not
 * keep the others from reading ahead; its scan asks for a thread again once it has taken them.
 * Shared by the readers of a server's segments; thread-safe.
 */
public final class ReadAhead implements Closeable {
  /** How long a read-ahead with its blocks all read waits for its scan before it lets go of its thread. */
  public static final long DEFAULT_IDLE_MS = 100;
  private static final ReadAhead NONE = new ReadAhead(0, 0, 0);

  private final int depth;
  private final int threads;
  private final long idleNanos;
  private final Semaphore free;
  private final ExecutorService pool;

  private ReadAhead(int depth, int threads, long idleMs) {
    this.depth = depth;
    this.threads = threads;
    this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMs);
    this.free = new Semaphore(threads);
    this.pool = depth > 0 && threads > 0 ? Executors.newCachedThreadPool(Threads.daemon("scan-read-ahead")) : null;
  }

  /** No read-ahead: every scan reads its blocks itself. */
  public static ReadAhead none() {
    return NONE;
  }

  /**
   * @param depth blocks each scan holds read ahead; 0 for none
   * @param threads scans that may read ahead at once; 0 for none
   */
  public static ReadAhead of(int depth, int threads) {
    return of(depth, threads, DEFAULT_IDLE_MS);
  }

  /**
   * The same, with read-aheads that let go of their thread after {@code idleMs} without their scan
   * taking a block.
   */
  public static ReadAhead of(int depth, int threads, long idleMs) {
    if (depth < 0 || threads < 0 || idleMs < 1) {
      throw new IllegalArgumentException("read-ahead depth and threads must be 0 or more and its idle time at least"
          + " 1 ms, got " + depth + ", " + threads + " and " + idleMs);
    }
    return depth == 0 || threads == 0 ? NONE : new ReadAhead(depth, threads, idleMs);
  }

  /** Blocks a scan holds read ahead (besides the one it reads); 0 when off. */
  int depth() {
    return pool == null ? 0 : depth;
  }

  /** How long a read-ahead whose blocks are all read waits for its scan to take one before it lets go of its thread. */
  long idleNanos() {
    return idleNanos;
  }

  /** Threads reading ahead for a scan now. */
  public int busy() {
    return threads - free.availablePermits();
  }

  /** What a read-ahead thread runs. */
  interface Task {
    /**
     * Does the work; calls {@code release} (once) when it is about to end, before it tells its
     * scan so, so that the scan's next read-ahead finds the thread free again.
     */
    void run(Runnable release);
  }

  /** Runs {@code task} on a read-ahead thread if one is free; false if none is (or this is off or closed). */
  boolean start(Task task) {
    if (pool == null || !free.tryAcquire()) {
      return false;
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release = () -> {
      if (released.compareAndSet(false, true)) {
        free.release();
      }
    };
    boolean started = false;
    try {
      pool.execute(() -> {
        try {
          task.run(release);
        } finally {
          release.run();
        }
      });
      started = true;
    } catch (RejectedExecutionException closed) { // the scan reads for itself
      return false;
    } finally {
      if (!started) {
        release.run();
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return pool == null ? "off" : depth + " blocks per scan, " + threads + " scans at once";
  }

  /** Stops the threads; a running read-ahead is interrupted and its scan gets the error. */
  @Override
  public void close() {
    if (pool != null) {
      Threads.stop(pool, 10);
    }
  }
}
