package org.logbase.tabletserver.server;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.logbase.common.Config;
import org.logbase.common.ZkPaths;
import org.logbase.log.LogSeals;
import org.logbase.log.LogSealsContract;
import org.logbase.testing.MiniZooKeeper;

/** Seals in ZooKeeper: each client is a server with a session of its own. */
class ZooKeeperLogSealsTest extends LogSealsContract {
  private MiniZooKeeper zk;
  private final List<CuratorFramework> clients = new ArrayList<>();

  @Override
  protected LogSeals client() throws Exception {
    if (zk == null) {
      zk = new MiniZooKeeper();
    }
    CuratorFramework c = CuratorFrameworkFactory.newClient(zk.server().getConnectString(), new RetryOneTime(100));
    c.start();
    clients.add(c);
    return new ZooKeeperLogSeals(c, ZkPaths.from(Config.empty()));
  }

  @AfterEach
  void close() throws Exception {
    clients.forEach(CuratorFramework::close);
    if (zk != null) {
      zk.close();
    }
  }
}
