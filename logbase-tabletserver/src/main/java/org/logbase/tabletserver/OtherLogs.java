package org.logbase.tabletserver;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.recovery.LogRecovery;

/**
 * Makes sure another server's log can no longer grow before this server reads a tablet's tail from
 * it. On HDFS that is lease recovery of its open segments: a writer that is only paused can never
 * flush into them again. The local file system has no leases; there the guarantee rests on the
 * writer having stopped (docs/architecture.md, "Failover").
 */
@FunctionalInterface
public interface LogFence {
  /** Recovers the lease of every segment of the log: for a writer known to be gone. */
  LogFence ALWAYS = (fs, logDir) -> LogRecovery.fence(fs, logDir);

  /**
   * Fences the log in {@code logDir} if its writer may be dead; leaves it alone if its writer is a
   * live server (a tablet moved from it: it closed the tablet and goes on writing other tablets).
   */
  void fence(FileSystem fs, Path logDir) throws IOException;
}
