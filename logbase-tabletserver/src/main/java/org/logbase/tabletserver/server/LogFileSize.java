package org.logbase.tabletserver.server;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.LogFileSystems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The size of this server's log files on the shared file system, for its heartbeat: unlike the
 * bytes appended since start, it is not zero after a restart. A failed measurement keeps the last
 * value (one warning per outage).
 */
final class LogFileSize implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogFileSize.class);

  private final FileSystem fs;
  private final Path logDir;
  private long last;
  private boolean warned;

  /** @param serverRoot the server's root: its log lives in {@code <root>/log} */
  LogFileSize(URI serverRoot) throws IOException {
    this.fs = LogFileSystems.open(serverRoot, new Configuration());
    this.logDir = new Path(new Path(serverRoot), "log");
  }

  /** Bytes in the log's files now. */
  synchronized long bytes() {
    try {
      last = fs.exists(logDir) ? fs.getContentSummary(logDir).getLength() : 0;
      warned = false;
    } catch (IOException e) {
      if (!warned) {
        LOG.warn("cannot measure the log's size in {}: {}", logDir, e.toString());
        warned = true;
      }
    }
    return last;
  }

  @Override
  public synchronized void close() throws IOException {
    fs.close();
  }
}
