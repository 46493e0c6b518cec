package org.logbase.files;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.CannotObtainBlockLengthException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS leases of files whose writer is gone or can no longer finish them: recovering one closes the
 * file at the length its DataNodes have, and no writer can flush into it afterwards. No-ops on
 * other file systems.
 */
public final class Leases {
  private static final Logger LOG = LoggerFactory.getLogger(Leases.class);
  /** How long a read waits for the recovery of a file it cannot read otherwise. */
  static final Duration READ_RECOVERY_TIMEOUT = Duration.ofSeconds(30);

  private Leases() {}

  /**
   * Recovers the lease of a file another (possibly paused, not dead) writer held, so that writer can
   * no longer flush into it, and waits until the file is closed.
   */
  public static void recover(FileSystem fs, Path file, Duration timeout) throws IOException {
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

  /**
   * Opens a file to read. A file left open whose last block's length no DataNode can tell any more
   * (its DataNode restarted while it was written, and its writer failed to close it: an abandoned log
   * segment, a manifest append cut off) is unreadable until its lease is recovered. The NameNode
   * never does that by itself while the writer's process lives: an HDFS lease belongs to a client,
   * not a file, and the client renews it for as long as it has any file open (its current segment).
   * So the lease is recovered here. Its writer's pipeline is broken already, so it loses nothing it
   * was not failing. Not for a file the caller itself still writes: recovering it would fail the
   * caller's own next flush.
   */
  public static FSDataInputStream open(FileSystem fs, Path file) throws IOException {
    try {
      return fs.open(file);
    } catch (CannotObtainBlockLengthException e) {
      LOG.warn("{} is open and the length of its last block is known to no DataNode (one restarted while it was"
          + " written); recovering its lease to read it", file);
      recover(fs, file, READ_RECOVERY_TIMEOUT);
      return fs.open(file);
    }
  }
}
