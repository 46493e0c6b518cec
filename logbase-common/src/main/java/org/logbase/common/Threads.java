package org.logbase.common;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
   * Lowers the calling thread's CPU priority to the nice value {@code nice} (1 to 19; the higher,
   * the more it yields to other threads), for background work that must not delay requests: on
   * Linux each thread has a nice value of its own, and the threads it starts inherit it (a
   * compaction's HDFS streamers, say). Done with util-linux's {@code renice} on the thread's id
   * ({@code /proc/thread-self}), which any user may do to raise a nice value and only a privileged
   * one to lower it again: run it on a thread of its own that keeps the job.
   *
   * @throws IOException naming why it could not (no {@code /proc/thread-self}, no {@code renice},
   *     or it refused); the thread runs on at the priority it had
   */
  public static void lowerPriority(int nice) throws IOException {
    if (nice < 1 || nice > 19) {
      throw new IllegalArgumentException("a nice value to lower a thread to is 1 to 19, not " + nice);
    }
    Path self = Path.of("/proc/thread-self");
    if (!Files.isSymbolicLink(self)) {
      throw new IOException(self + " does not exist (not Linux?)");
    }
    String tid = Files.readSymbolicLink(self).getFileName().toString();
    Process p = new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p", tid).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("renice -n " + nice + " -p " + tid + " did not end within 10 s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while renice ran");
    }
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.exitValue() != 0) {
      throw new IOException("renice -n " + nice + " -p " + tid + " exited with " + p.exitValue() + ": " + said);
    }
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
