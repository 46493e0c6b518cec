package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ZkPaths;
import org.logbase.recovery.LogCollector;

/** The ids of dropped tables, as the master records them with each drop ({@link ZkPaths#droppedTables}). */
final class ZooKeeperDroppedTables implements LogCollector.DroppedTables {
  private final CuratorFramework zk;
  private final ZkPaths paths;

  ZooKeeperDroppedTables(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  @Override
  public Set<Integer> ids() throws IOException {
    Set<Integer> out = new HashSet<>();
    try {
      for (String child : zk.getChildren().forPath(paths.droppedTables())) {
        out.add(Integer.parseInt(child));
      }
    } catch (KeeperException.NoNodeException e) {
      return Set.of(); // no table dropped yet
    } catch (Exception e) {
      throw new IOException("cannot read the dropped tables from ZooKeeper: " + e, e);
    }
    return out;
  }
}
