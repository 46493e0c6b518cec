package org.logbase.master;

import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ZkPaths;

/**
 * Whether the {@link Balancer} evens out tablets: "on" or "off" in {@link ZkPaths#balancer()}, on
 * when absent, so the setting survives a master failover (as HBase's balance_switch does).
 */
final class BalancerSwitch {
  private final CuratorFramework zk;
  private final ZkPaths paths;

  BalancerSwitch(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  boolean enabled() throws Exception {
    try {
      return !"off".equals(new String(zk.getData().forPath(paths.balancer()), StandardCharsets.UTF_8));
    } catch (KeeperException.NoNodeException e) {
      return true;
    }
  }

  void set(boolean on) throws Exception {
    byte[] value = (on ? "on" : "off").getBytes(StandardCharsets.UTF_8);
    try {
      zk.setData().forPath(paths.balancer(), value);
    } catch (KeeperException.NoNodeException e) {
      try {
        zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(paths.balancer(), value);
      } catch (KeeperException.NodeExistsException raced) {
        zk.setData().forPath(paths.balancer(), value);
      }
    }
  }
}
