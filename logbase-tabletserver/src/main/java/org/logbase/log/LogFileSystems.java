package org.logbase.log;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the file system a log lives on, and fences a dead writer's files before they are read. */
public final class LogFileSystems {
  private static final Logger LOG = LoggerFactory.getLogger(LogFileSystems.class);

  private LogFileSystems() {}

  /**
   * The file system for {@code root}. file:// gets RawLocalFileSystem because the checksummed
   * LocalFileSystem ignores hflush/hsync, which would make every acknowledgement a lie, and syncs
   * the directories a create, mkdirs or rename changed ({@link DurableLocalFileSystem}). A fresh,
   * uncached instance: closing it must not close someone else's.
   */
  public static FileSystem open(URI root, Configuration conf) throws IOException {
    String scheme = root.getScheme() == null ? "file" : root.getScheme();
    if (scheme.equals("file")) {
      RawLocalFileSystem fs = new DurableLocalFileSystem();
      fs.initialize(URI.create("file:///"), conf);
      return fs;
    }
    return FileSystem.newInstance(root, conf);
  }

  /**
   * Recovers the HDFS lease of a file another (possibly paused, not dead) writer held, so that
   * writer can no longer flush into it, and waits until the file is closed. No-op on other file
   * systems.
   */
  public static void fence(FileSystem fs, Path file, Duration timeout) throws IOException {
    // A wrapped HDFS (the server's lease guard, a test's fault injection) is HDFS all the same.
    while (fs instanceof FilterFileSystem wrapped) {
      fs = wrapped.getRawFileSystem();
    }
    if (!(fs instanceof DistributedFileSystem dfs)) {
      return;
    }
    Instant deadline = Instant.now().plus(timeout);
    long backoffMs = 50;
    while (!dfs.recoverLease(file)) {
      if (Instant.now().isAfter(deadline)) {
        throw new IOException("lease recovery of " + file + " did not finish within " + timeout);
      }
      LOG.debug("waiting for lease recovery of {}", file);
      try {
        Thread.sleep(backoffMs); // polling the NameNode; there is no notification to await
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while recovering the lease of " + file, e);
      }
      // Short: a failover waits for this (block recovery on a DataNode takes about a second).
      backoffMs = Math.min(200, backoffMs * 2);
    }
  }
}
