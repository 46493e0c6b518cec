package org.logbase.tabletserver.server;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.fs.SafeModeAction;
import org.logbase.common.StorageUnavailableException;
import org.logbase.log.LogFileSystems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, as a tablet server starts, until the file system its log lives on takes requests: its
 * root answers, and an HDFS NameNode is out of safe mode. A NameNode restarted (alone, or with the
 * cluster) stays in safe mode until its DataNodes have reported their blocks; a server that began
 * its recovery meanwhile failed at its first lease recovery and exited, again at each restart. An
 * HBase region server waits for safe mode to end the same way. Failures that do not mean "not now"
 * (a bad URI, no permission) end the wait at once.
 *
 * <p>The file system may also go away while the recovery runs (a NameNode killed while a server
 * starts slowly): {@link #openWhenReady} then waits for it again and runs the recovery again from
 * its start, as a restart of the process would, within the same limit.
 */
final class FileSystemWait {
  private static final Logger LOG = LoggerFactory.getLogger(FileSystemWait.class);
  /** How long a tablet server waits at start for its file system. */
  static final String WAIT_MS = "tabletserver.fs.wait.ms";
  static final long DEFAULT_WAIT_MS = 10 * 60 * 1000;
  private static final Duration POLL = Duration.ofSeconds(1);
  private static final Duration REPORT_EVERY = Duration.ofSeconds(10);

  private FileSystemWait() {}

  /** What runs once the file system takes requests: opening (recovering) the storage. */
  interface Opening<T> {
    T run() throws IOException;
  }

  /**
   * Waits for {@code root} as {@link #await} does, then runs {@code open}; if that fails because
   * the file system does not take requests for the moment ({@link StorageFailures}), waits for it
   * again and runs {@code open} again, until {@code max} from now has passed. {@code open} must
   * leave nothing open when it fails (as {@code StorageEngine.open} does), and must be safe to run
   * again after failing at any point (as a recovery is after a crash at any point).
   */
  static <T> T openWhenReady(URI root, Configuration conf, Duration max, Opening<T> open) throws IOException {
    long start = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      awaitFrom(root, conf, start, max);
      try {
        return open.run();
      } catch (IOException | RuntimeException e) { // the recovery's threads wrap what they meet
        if (!(StorageFailures.forCaller(e) instanceof StorageUnavailableException)) {
          throw e;
        }
        if (System.nanoTime() - start >= max.toNanos()) {
          LOG.error("the file system at {} failed during recovery, and did not take requests again within {} s ({})",
              root, max.toSeconds(), WAIT_MS);
          throw e;
        }
        LOG.warn("the file system at {} failed during recovery (attempt {}, {} s since the start): waiting for it, then"
            + " recovering again from the start", root, attempt, seconds(System.nanoTime() - start), e);
        pause(root);
      }
    }
  }

  /** Returns once {@code root} takes requests; throws if it does not within {@code max}. */
  static void await(URI root, Configuration conf, Duration max) throws IOException {
    awaitFrom(root, conf, System.nanoTime(), max);
  }

  private static void awaitFrom(URI root, Configuration conf, long start, Duration max) throws IOException {
    boolean waited = false;
    long lastReport = start;
    try (FileSystem fs = LogFileSystems.open(root, quick(conf))) {
      while (true) {
        String notYet = notReady(fs);
        long now = System.nanoTime();
        if (notYet == null) {
          if (waited) {
            LOG.info("the file system at {} takes requests after {} s", root, seconds(now - start));
          }
          return;
        }
        if (now - start >= max.toNanos()) {
          throw new IOException("the file system at " + root + " did not take requests within " + max.toSeconds()
              + " s (" + WAIT_MS + "): " + notYet);
        }
        if (!waited || now - lastReport >= REPORT_EVERY.toNanos()) {
          waited = true;
          LOG.warn("waiting for the file system at {} before recovering the log ({} s so far): {}", root,
              seconds(now - start), notYet);
          lastReport = now;
        }
        pause(root);
      }
    }
  }

  private static void pause(URI root) throws InterruptedIOException {
    try {
      Thread.sleep(POLL.toMillis()); // polls a NameNode that sends no notice when it is ready
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the file system at " + root);
    }
  }

  /**
   * {@code conf} for polls that each end within seconds: by default one call to a NameNode that is
   * not up retries its connection for many seconds (ten times; far more on timeouts), and the wait
   * would overrun its limit by that.
   */
  private static Configuration quick(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.setInt("ipc.client.connect.max.retries", 0);
    c.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    c.setInt("ipc.client.connect.timeout", 5000);
    c.setBoolean("dfs.client.retry.policy.enabled", false);
    return c;
  }

  /** Why {@code fs} does not take requests yet, or null if it does. */
  private static String notReady(FileSystem fs) throws IOException {
    try {
      fs.getFileStatus(new Path("/"));
      if (fs instanceof SafeMode s && s.setSafeMode(SafeModeAction.GET)) {
        return "the NameNode is in safe mode";
      }
      return null;
    } catch (IOException e) {
      if (StorageFailures.forCaller(e) instanceof StorageUnavailableException) {
        return e.toString();
      }
      throw e;
    }
  }

  private static long seconds(long nanos) {
    return Duration.ofNanos(nanos).toSeconds();
  }
}
