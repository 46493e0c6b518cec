package org.logbase.master;

import org.logbase.testing.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.NotActiveMasterException;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.ClusterStatusResponse;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.ListTablesRequest;
import org.logbase.rpc.TableMeta;

/** Election of the active master among several, and takeover when the active one goes away. */
class MasterElectionTest {
  @RegisterExtension static final ZooKeeperExtension ZK = new ZooKeeperExtension();
  private MasterTestCluster cluster;

  @BeforeEach
  void newCluster() {
    cluster = new MasterTestCluster(ZK.server());
  }

  @AfterEach
  void closeCluster() throws Exception {
    cluster.close();
  }

  @Test
  void oneOfTwoMastersIsActiveAndTheStandbyRefusesAdminCalls() throws Exception {
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer active = pair.active();
    MasterServer standby = pair.standby();

    assertTrue(cluster.output(standby).contains("MASTER READY " + standby.address()));
    Await.until("ACTIVE line", () -> cluster.output(active).contains("MASTER ACTIVE " + active.address()));
    assertFalse(standby.isActive());
    assertFalse(cluster.output(standby).contains("MASTER ACTIVE"));
    assertEquals(active.address(), activeMasterZnode());

    for (MasterServer m : List.of(active, standby)) {
      MasterAdmin admin = cluster.admin(m);
      Await.until(m.address() + " reports the active master", () ->
          admin.call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance()))
              .getActiveMaster().equals(active.address()));
      ClusterStatusResponse status = admin.call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance()));
      assertEquals(Set.of(active.address(), standby.address()), Set.copyOf(status.getMastersList()));
    }

    MasterAdmin toStandby = cluster.admin(standby);
    NotActiveMasterException e = assertThrows(NotActiveMasterException.class,
        () -> toStandby.call(s -> s.listTables(ListTablesRequest.getDefaultInstance())));
    assertTrue(e.getMessage().contains(active.address()), e.getMessage());
    assertThrows(NotActiveMasterException.class,
        () -> toStandby.call(s -> s.createTable(MasterAdmin.simpleTable("t"))));
    assertThrows(NotActiveMasterException.class,
        () -> toStandby.call(s -> s.heartbeat(HeartbeatRequest.newBuilder().setServerId("ts-1").build())));
    assertTrue(cluster.admin(active).call(s -> s.listTables(ListTablesRequest.getDefaultInstance()))
        .getNamesList().isEmpty());
  }

  @Test
  void standbyTakesOverWhenTheActiveMasterCloses() throws Exception {
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer active = pair.active();
    MasterServer standby = pair.standby();

    active.close();
    assertEquals(0, active.awaitExit());
    cluster.awaitActive(standby);
    assertEquals(standby.address(), activeMasterZnode());
    ClusterStatusResponse status = cluster.admin(standby)
        .call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance()));
    assertEquals(List.of(standby.address()), status.getMastersList());
    assertEquals(standby.address(), status.getActiveMaster());
  }

  @Test
  void standbyTakesOverWhenTheActiveMastersSessionExpires() throws Exception {
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer active = pair.active();
    MasterServer standby = pair.standby();

    cluster.expireSession(active);

    int exitStatus = assertTimeoutPreemptively(Duration.ofSeconds(30), active::awaitExit);
    assertEquals(1, exitStatus, "a master that lost its session exits non-zero");
    assertFalse(active.isActive());
    cluster.awaitActive(standby);
    Await.until("active-master znode names the new master", () -> standby.address().equals(activeMasterZnode()));
  }

  @Test
  void newLeaderWaitsForTheStaleActiveMasterZnodeOfADeadSession() throws Exception {
    // A previous master's znode whose session has not expired yet.
    MasterServer m;
    try (CuratorFramework previous = CuratorFrameworkFactory.newClient(cluster.zkConnectString(), new RetryOneTime(100))) {
      previous.start();
      previous.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
          .forPath(cluster.paths().activeMaster(), "previous:1".getBytes(StandardCharsets.UTF_8));
      m = cluster.startMaster();
      MasterAdmin admin = cluster.admin(m);
      Await.until("the new master joined the election", () ->
          admin.call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance())).getMastersCount() == 1);
      assertFalse(m.isActive(), "must not be active while the previous master's znode exists");
      NotActiveMasterException e = assertThrows(NotActiveMasterException.class,
          () -> admin.call(s -> s.listTables(ListTablesRequest.getDefaultInstance())));
      assertTrue(e.getMessage().contains("previous:1"), e.getMessage());
    } // the previous master's session ends here
    cluster.awaitActive(m);
    assertEquals(m.address(), activeMasterZnode());
  }

  @Test
  void tableIdsStayUniqueAndMetadataSurvivesAFailover() throws Exception {
    FakeTabletServer server = cluster.startTabletServer("ts-1");
    MasterTestCluster.Pair pair = cluster.startActiveAndStandby();
    MasterServer first = pair.active();
    MasterServer second = pair.standby();
    MasterAdmin toFirst = cluster.admin(first);
    TableMeta t1 = toFirst.call(s -> s.createTable(MasterAdmin.simpleTable("t1", "m")));
    TableMeta t2 = toFirst.call(s -> s.createTable(MasterAdmin.simpleTable("t2")));

    first.close();
    cluster.awaitActive(second);
    MasterAdmin toSecond = cluster.admin(second);
    TableMeta t3 = toSecond.call(s -> s.createTable(MasterAdmin.simpleTable("t3")));

    assertEquals(3, Set.of(t1.getSpec().getId(), t2.getSpec().getId(), t3.getSpec().getId()).size());
    assertTrue(t1.getSpec().getId() < t2.getSpec().getId() && t2.getSpec().getId() < t3.getSpec().getId());
    assertEquals(t1, toSecond.call(s -> s.describeTable(MasterAdmin.table("t1"))));
    // The new active master re-opened the tablets it found assigned.
    Await.until("t1's tablets re-opened after the failover", () ->
        server.opensOf("t1", 0).size() >= 2 && server.opensOf("t1", 1).size() >= 2);
    assertNotEquals(first.address(), activeMasterZnode());
  }

  private String activeMasterZnode() {
    try {
      return new String(cluster.zk().getData().forPath(cluster.paths().activeMaster()), StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "";
    }
  }
}
