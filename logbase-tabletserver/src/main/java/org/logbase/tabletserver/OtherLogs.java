package org.logbase.tabletserver;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Whether another server's log, which a tablet's tail is to be read from, is still written by a
 * live server. A live server gave the tablet up (a move): it closed it, so every record of the
 * tablet is in its log already, and it goes on writing other tablets' records there; its log is
 * read to its current end and left alone. Any other log belongs to a writer that is gone (dead, or
 * paused past its ZooKeeper session): the engine fences and seals it before reading it ({@link
 * org.logbase.recovery.LogRecovery#seal}), so that a paused writer that wakes can add nothing anyone
 * reads (docs/architecture.md, "Sealed logs").
 */
@FunctionalInterface
public interface OtherLogs {
  /** For an engine that is alone: the writer of another log is gone. */
  OtherLogs WRITERS_GONE = logDir -> false;

  /** Whether a live server writes the log in {@code logDir}. */
  boolean writerLive(Path logDir) throws IOException;

  /**
   * The logs of other servers whose writer is gone, which this server's log garbage collection
   * collects as it collects its own ({@link org.logbase.recovery.LogCollector}); none by default: an
   * engine alone cannot tell a gone writer from a live one.
   *
   * @param ownLog this server's log directory
   */
  default List<Path> goneLogs(FileSystem fs, Path ownLog) throws IOException {
    return List.of();
  }
}
