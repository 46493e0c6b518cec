package org.logbase.client.fake;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.logbase.client.ClientConfig;
import org.logbase.common.Bytes;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.ZkPaths;

/**
 * A real ZooKeeper (Curator TestingServer) plus fake masters and tablet servers on localhost
 * ports. The first master starts active: its address is in the active-master znode.
 */
public final class FakeCluster implements AutoCloseable {
  private final TestingServer zkServer;
  private final CuratorFramework zk;
  private final ZkPaths paths = new ZkPaths(ZkPaths.DEFAULT_ROOT);
  private final FakeMetadata meta = new FakeMetadata();
  private final List<FakeMaster> masters = new ArrayList<>();
  private final List<FakeTabletServer> servers = new ArrayList<>();

  private FakeCluster(int masterCount, int serverCount) throws Exception {
    zkServer = new TestingServer(true);
    zk = CuratorFrameworkFactory.newClient(zkServer.getConnectString(), new RetryOneTime(100));
    zk.start();
    for (int i = 0; i < serverCount; i++) {
      servers.add(new FakeTabletServer("ts-" + i, meta));
    }
    for (int i = 0; i < masterCount; i++) {
      masters.add(new FakeMaster(meta));
    }
    activate(0);
  }

  public static FakeCluster start(int masters, int servers) throws Exception {
    return new FakeCluster(masters, servers);
  }

  public String zkConnect() {
    return zkServer.getConnectString();
  }

  /** Client settings for this cluster, with a deadline short enough for failing tests to end soon. */
  public Config clientConfig() {
    return Config.empty()
        .with(ClusterConfig.ZK_CONNECT, zkConnect())
        .with(ClusterConfig.RPC_DEADLINE_MS, 15_000)
        .with(ClientConfig.RETRY_INITIAL_MS, 20);
  }

  public FakeMaster master(int i) {
    return masters.get(i);
  }

  public FakeTabletServer server(int i) {
    return servers.get(i);
  }

  public FakeMetadata metadata() {
    return meta;
  }

  /** Makes master {@code i} the active one, as an election would, and publishes its address. */
  public void activate(int i) throws Exception {
    for (int m = 0; m < masters.size(); m++) {
      masters.get(m).setActive(m == i);
    }
    byte[] address = Bytes.utf8(masters.get(i).address());
    if (zk.checkExists().forPath(paths.activeMaster()) == null) {
      zk.create().creatingParentsIfNeeded().forPath(paths.activeMaster(), address);
    } else {
      zk.setData().forPath(paths.activeMaster(), address);
    }
  }

  /** No master is active: the znode is gone, as between a master's death and the next election. */
  public void deactivateAll() throws Exception {
    masters.forEach(m -> m.setActive(false));
    zk.delete().forPath(paths.activeMaster());
  }

  public void stopMaster(int i) {
    masters.get(i).stop();
  }

  /** Reassigns a tablet to server {@code serverIndex}. */
  public void moveTablet(String table, int tabletId, int serverIndex) {
    meta.move(table, tabletId, servers.get(serverIndex).id());
  }

  /** Assigns a tablet to a server that is not live: clients find no address for it. */
  public void orphanTablet(String table, int tabletId) {
    meta.move(table, tabletId, "ts-dead");
  }

  @Override
  public void close() throws IOException {
    masters.forEach(FakeMaster::stop);
    servers.forEach(FakeTabletServer::stop);
    zk.close();
    zkServer.close();
  }
}
