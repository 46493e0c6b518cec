package org.logbase.common;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one way LogBase names and starts its own threads: daemon threads (a process ends when its
 * main work ends, whatever a background thread is doing) with a name that says what they do, so a
 * thread dump reads like a list of jobs.
 */
public final class Threads {
  private Threads() {}

  /**
   * A factory of daemon threads named {@code name}; when it makes more than one, the second and later
   * are named {@code name-2}, {@code name-3}, ...
   */
  public static ThreadFactory daemon(String name) {
    AtomicInteger made = new AtomicInteger();
    return r -> {
      int n = made.incrementAndGet();
      Thread t = new Thread(r, n == 1 ? name : name + "-" + n);
      t.setDaemon(true);
      return t;
    };
  }

  /** A daemon thread named {@code name} running {@code body}, not started yet. */
  public static Thread newDaemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    return t;
  }

  /** Starts a daemon thread named {@code name} running {@code body}. */
  public static Thread startDaemon(String name, Runnable body) {
    Thread t = newDaemon(name, body);
    t.start();
    return t;
  }

  /**
   * Stops a pool of background work: interrupts what runs and waits up to {@code waitSeconds} for it
   * to end (a caller interrupted meanwhile stops waiting, its interrupt kept).
   */
  public static void stop(ExecutorService pool, long waitSeconds) {
    pool.shutdownNow();
    try {
      pool.awaitTermination(waitSeconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
