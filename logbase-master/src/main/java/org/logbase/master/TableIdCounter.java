package org.logbase.master;

import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.ZkPaths;

/**
 * Hands out table ids from the counter znode {@link ZkPaths#tableIds()}. Each id is one
 * compare-and-set on the znode, and the znode's version after the write is the id: ZooKeeper never
 * reuses a version, so ids stay unique across master failovers and concurrent creates. The data
 * holds the same number in decimal, for people reading ZooKeeper.
 *
 * <p>Ids start at 1. A create that fails after taking an id leaves a gap; ids only need to be
 * unique (log records name their table by id), not dense.
 */
final class TableIdCounter {
  private final CuratorFramework zk;
  private final String path;

  TableIdCounter(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.path = paths.tableIds();
  }

  /** A table id never handed out before. */
  int next() throws Exception {
    while (true) {
      Stat stat = currentStat();
      int id = stat.getVersion() + 1;
      try {
        Stat written = zk.setData().withVersion(stat.getVersion()).forPath(path, encode(id));
        return written.getVersion();
      } catch (KeeperException.BadVersionException raced) {
        // Another master or thread took this id: try the next one.
      }
    }
  }

  private Stat currentStat() throws Exception {
    Stat stat = zk.checkExists().forPath(path);
    if (stat != null) {
      return stat;
    }
    try {
      zk.create().creatingParentsIfNeeded().forPath(path, encode(0));
    } catch (KeeperException.NodeExistsException created) {
      // Created concurrently: fine, read it below.
    }
    return zk.checkExists().forPath(path);
  }

  private static byte[] encode(int id) {
    return Integer.toString(id).getBytes(StandardCharsets.UTF_8);
  }
}
