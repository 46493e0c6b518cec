package org.logbase.master;

import org.logbase.testing.Await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.ZkPaths;

/**
 * One test's cluster: masters and fake tablet servers under a ZooKeeper root of their own on a
 * shared {@link TestingServer}, so tests never see each other's znodes. Closes all it started.
 */
final class MasterTestCluster implements AutoCloseable {
  private static final AtomicInteger ROOTS = new AtomicInteger();

  private final TestingServer zkServer;
  private final Config config;
  private final ZkPaths paths;
  private final CuratorFramework zk;
  private final List<AutoCloseable> started = new ArrayList<>();
  private final Map<MasterServer, ByteArrayOutputStream> outputs = new IdentityHashMap<>();

  MasterTestCluster(TestingServer zkServer) {
    this.zkServer = zkServer;
    String root = "/test-" + ROOTS.incrementAndGet();
    config = Config.empty()
        .with(ClusterConfig.ZK_CONNECT, zkServer.getConnectString())
        .with(ClusterConfig.ZK_ROOT, root)
        .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 6000);
    paths = new ZkPaths(root);
    zk = CuratorFrameworkFactory.newClient(zkServer.getConnectString(), new RetryOneTime(100));
    zk.start();
  }

  Config config() {
    return config;
  }

  ZkPaths paths() {
    return paths;
  }

  /** The test's own ZooKeeper client (fake tablet servers register through it). */
  CuratorFramework zk() {
    return zk;
  }

  String zkConnectString() {
    return zkServer.getConnectString();
  }

  /** Starts a master on a free port; what it prints is kept for {@link #output}. */
  MasterServer startMaster() throws Exception {
    return startMaster(System::currentTimeMillis);
  }

  /** Starts a master whose timestamp oracle reads {@code wallMillis} as its clock. */
  MasterServer startMaster(LongSupplier wallMillis) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    MasterServer m = MasterServer.start(config, "localhost", 0,
        new PrintStream(bytes, true, StandardCharsets.UTF_8), wallMillis);
    synchronized (outputs) {
      outputs.put(m, bytes);
    }
    started.add(m);
    return m;
  }

  /** What {@code master} printed on its stdout so far. */
  String output(MasterServer master) {
    synchronized (outputs) {
      return outputs.get(master).toString(StandardCharsets.UTF_8);
    }
  }

  FakeTabletServer startTabletServer(String id) throws Exception {
    FakeTabletServer s = FakeTabletServer.start(id, zk, paths);
    started.add(s);
    return s;
  }

  /** Starts fake tablet servers with these ids, by id. */
  Map<String, FakeTabletServer> startTabletServers(String... ids) throws Exception {
    Map<String, FakeTabletServer> servers = new TreeMap<>();
    for (String id : ids) {
      servers.put(id, startTabletServer(id));
    }
    return servers;
  }

  /** Two masters once one of them is active, and which is which. */
  record Pair(MasterServer active, MasterServer standby) {}

  /** Starts two masters and waits until one of them is active. */
  Pair startActiveAndStandby() throws Exception {
    MasterServer a = startMaster();
    MasterServer b = startMaster();
    MasterServer active = awaitActive(a, b);
    return new Pair(active, active == a ? b : a);
  }

  /** Waits until one of {@code masters} is active and returns it. */
  MasterServer awaitActive(MasterServer... masters) {
    Await.until("one of " + masters.length + " masters active",
        () -> Arrays.stream(masters).anyMatch(MasterServer::isActive));
    return Arrays.stream(masters).filter(MasterServer::isActive).findFirst().orElseThrow();
  }

  /**
   * Ends a master's ZooKeeper session on the server, as a long network partition would: a second
   * handle attaches to the same session and closes it. ZooKeeper removes the session's ephemeral
   * znodes at once, and the master is told its session expired.
   */
  void expireSession(MasterServer master) throws Exception {
    ZooKeeper original = master.zookeeper().getZookeeperClient().getZooKeeper();
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper twin = new ZooKeeper(zkServer.getConnectString(), 6000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, original.getSessionId(), original.getSessionPasswd());
    try {
      if (!connected.await(20, TimeUnit.SECONDS)) {
        throw new AssertionError("could not attach to the master's session");
      }
    } finally {
      twin.close();
    }
  }

  MasterAdmin admin(MasterServer master) {
    MasterAdmin a = new MasterAdmin(master.address());
    started.add(a);
    return a;
  }

  @Override
  public void close() throws Exception {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).close();
    }
    zk.close();
  }
}
