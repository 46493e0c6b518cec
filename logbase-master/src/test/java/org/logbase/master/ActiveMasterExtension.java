package org.logbase.master;

import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For each test: an active master and fake tablet servers on the class's ZooKeeper, closed after the
 * test; the test talks to the master through {@link #admin()}.
 */
final class ActiveMasterExtension implements BeforeEachCallback, AfterEachCallback {
  private final ZooKeeperExtension zk;
  private final String[] serverIds;
  private MasterTestCluster cluster;
  private Map<String, FakeTabletServer> servers;
  private MasterAdmin admin;

  ActiveMasterExtension(ZooKeeperExtension zk, String... serverIds) {
    this.zk = zk;
    this.serverIds = serverIds.clone();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    cluster = new MasterTestCluster(zk.server());
    servers = cluster.startTabletServers(serverIds);
    admin = cluster.admin(cluster.awaitActive(cluster.startMaster()));
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    cluster.close();
  }

  MasterTestCluster cluster() {
    return cluster;
  }

  Map<String, FakeTabletServer> servers() {
    return servers;
  }

  MasterAdmin admin() {
    return admin;
  }
}
