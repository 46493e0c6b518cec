package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.ZkPaths;
import org.logbase.files.SharedPaths;
import org.logbase.tabletserver.OtherLogs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether the writer of another tablet server's log ({@code <fs root>/servers/<id>/log}) is
 * live: whether server {@code <id>} is registered. A live server gave the tablet up (a move) and goes
 * on writing its log, whose open segment must not be taken from it. A server that restarted under
 * the same id sealed its previous incarnation's segments itself before it registered (and creates
 * its own first segment only after). Any other log's writer is gone.
 *
 * <p>The logs of the servers under {@code <fs root>/servers/} that are not registered are gone, for
 * the log garbage collection of this server to collect ({@link #goneLogs}); a server that
 * registers again collects its own.
 */
final class DeadServerLogs implements OtherLogs {
  private static final Logger LOG = LoggerFactory.getLogger(DeadServerLogs.class);

  private final CuratorFramework zk;
  private final ZkPaths paths;

  DeadServerLogs(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  @Override
  public boolean writerLive(Path logDir) throws IOException {
    Path serverDir = logDir.getParent();
    boolean serverLog = serverDir != null && serverDir.getParent() != null
        && serverDir.getParent().getName().equals("servers") && logDir.getName().equals("log");
    if (serverLog && registered(serverDir.getName())) {
      LOG.info("server {} is live: its log {} is read without fencing", serverDir.getName(), logDir);
      return true;
    }
    return false;
  }

  @Override
  public List<Path> goneLogs(FileSystem fs, Path ownLog) throws IOException {
    Path serverDir = ownLog.getParent();
    Path servers = serverDir == null ? null : serverDir.getParent();
    if (servers == null || !servers.getName().equals("servers") || !ownLog.getName().equals("log")) {
      return List.of(); // not laid out as a cluster's server: no other server's log to tell
    }
    List<Path> gone = new ArrayList<>();
    for (FileStatus f : SharedPaths.list(fs, servers)) {
      Path log = new Path(f.getPath(), "log");
      if (f.isDirectory() && !f.getPath().getName().equals(serverDir.getName()) && fs.exists(log)
          && !registered(f.getPath().getName())) {
        gone.add(log);
      }
    }
    return gone;
  }

  private boolean registered(String serverId) throws IOException {
    try {
      // Synced first: this server's ZooKeeper may be a follower that has not yet applied the end of
      // the other server's session, which the master saw before it moved the tablet here.
      ZooKeeperSync.await(zk, paths.server(serverId));
      return zk.checkExists().forPath(paths.server(serverId)) != null;
    } catch (Exception e) {
      throw new IOException("cannot tell whether server " + serverId + " is live: " + e, e);
    }
  }
}
