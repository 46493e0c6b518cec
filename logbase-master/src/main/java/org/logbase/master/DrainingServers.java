package org.logbase.master;

import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ZkPaths;

/**
 * Tablet servers being decommissioned: a persistent znode per server id under {@link
 * ZkPaths#draining()}, so the decision survives a master failover. A draining server gets no new
 * tablets (creates, failover, the balancer pass it over) and the {@link Balancer} moves its tablets to
 * the others, whether or not balancing is switched on. Read from ZooKeeper on every call, as {@link
 * LiveServers} is.
 */
final class DrainingServers {
  private final CuratorFramework zk;
  private final ZkPaths paths;

  DrainingServers(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  Set<String> read() throws Exception {
    try {
      return new TreeSet<>(zk.getChildren().forPath(paths.draining()));
    } catch (KeeperException.NoNodeException e) {
      return Set.of();
    }
  }

  void add(String serverId) throws Exception {
    try {
      zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(paths.draining(serverId));
    } catch (KeeperException.NodeExistsException already) {
      // Draining already.
    }
  }

  void remove(String serverId) throws Exception {
    try {
      zk.delete().forPath(paths.draining(serverId));
    } catch (KeeperException.NoNodeException already) {
      // Not draining.
    }
  }

  /**
   * The live servers that may receive tablets: those not draining. When every live server is
   * draining, all of them: tablets must be served somewhere.
   */
  SortedMap<String, String> placeable(Map<String, String> live) throws Exception {
    Set<String> draining = read();
    SortedMap<String, String> out = new TreeMap<>(live);
    out.keySet().removeAll(draining);
    return out.isEmpty() ? new TreeMap<>(live) : out;
  }
}
