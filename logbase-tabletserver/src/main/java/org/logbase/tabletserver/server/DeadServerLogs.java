package org.logbase.tabletserver.server;

import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.ZkPaths;
import org.logbase.tabletserver.LogFence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fences the log of another tablet server ({@code <fs root>/servers/<id>/log}) before a tablet's
 * tail is read from it, unless that server is registered as live: a live server gave the tablet up
 * (a move) and goes on writing its log, whose open segment must not be taken from it. A server that
 * restarted under the same id fenced its previous incarnation's segments itself before registering.
 */
final class DeadServerLogs implements LogFence {
  private static final Logger LOG = LoggerFactory.getLogger(DeadServerLogs.class);

  private final CuratorFramework zk;
  private final ZkPaths paths;

  DeadServerLogs(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  @Override
  public void fence(FileSystem fs, Path logDir) throws IOException {
    Path serverDir = logDir.getParent();
    boolean serverLog = serverDir != null && serverDir.getParent() != null
        && serverDir.getParent().getName().equals("servers") && logDir.getName().equals("log");
    if (serverLog && registered(serverDir.getName())) {
      LOG.info("server {} is live: its log {} is read without fencing", serverDir.getName(), logDir);
      return;
    }
    long t0 = System.nanoTime();
    ALWAYS.fence(fs, logDir);
    LOG.info("fenced the log {} in {} ms", logDir, (System.nanoTime() - t0) / 1_000_000);
  }

  private boolean registered(String serverId) throws IOException {
    try {
      // Synced first: this server's ZooKeeper may be a follower that has not yet applied the end of
      // the other server's session, which the master saw before it moved the tablet here. The sync
      // runs in the background, but a session's requests are served in order: the read follows it.
      zk.sync().forPath(paths.server(serverId));
      return zk.checkExists().forPath(paths.server(serverId)) != null;
    } catch (Exception e) {
      throw new IOException("cannot tell whether server " + serverId + " is live: " + e, e);
    }
  }
}
