package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.ZkPaths;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletSpec;

/**
 * A master that lost its role without noticing changes no metadata: its writes check the master
 * epoch, which the successor moved on (real ZooKeeper, two masters' stores on separate sessions).
 */
class MasterEpochTest {
  @RegisterExtension static final ZooKeeperExtension ZK = new ZooKeeperExtension();
  private static int roots;

  private CuratorFramework oldZk;
  private CuratorFramework newZk;
  private ZkPaths paths;

  @BeforeEach
  void connect() throws Exception {
    paths = new ZkPaths("/epoch-test-" + roots++);
    oldZk = CuratorFrameworkFactory.newClient(ZK.server().getConnectString(), new RetryOneTime(100));
    newZk = CuratorFrameworkFactory.newClient(ZK.server().getConnectString(), new RetryOneTime(100));
    oldZk.start();
    newZk.start();
    oldZk.create().creatingParentsIfNeeded().forPath(paths.tables());
  }

  @AfterEach
  void close() {
    oldZk.close();
    newZk.close();
  }

  @Test
  void aDeposedMastersMetadataWritesFailAndTheActiveOnesSucceed() throws Exception {
    MasterEpoch oldEpoch = new MasterEpoch(oldZk, paths);
    TableStore oldStore = new TableStore(oldZk, paths, oldEpoch);
    oldEpoch.activate("old:1");
    oldStore.create(meta("t", "ts1"));
    long oldCommands = oldEpoch.current();

    MasterEpoch newEpoch = new MasterEpoch(newZk, paths);
    TableStore newStore = new TableStore(newZk, paths, newEpoch);
    newEpoch.activate("new:2");
    assertTrue(newEpoch.current() > oldCommands, "the successor's commands carry a higher epoch");

    // The old master still believes it is active: its move of the tablet must not happen.
    NotActiveMasterException refused = assertThrows(NotActiveMasterException.class,
        () -> oldStore.update("t", m -> moveTo(m, "ts2")));
    assertTrue(refused.getMessage().contains("deposed"), refused.getMessage());
    assertThrows(NotActiveMasterException.class, () -> oldStore.create(meta("u", "ts1")));
    assertThrows(NotActiveMasterException.class, () -> oldStore.delete("t", ""));
    assertThrows(NotActiveMasterException.class, () -> oldStore.delete("t", "a-drop"));
    assertEquals("ts1", owner(newStore.get("t").meta()), "nothing the old master tried was written");

    newStore.update("t", m -> moveTo(m, "ts3"));
    assertEquals("ts3", owner(newStore.get("t").meta()));
  }

  @Test
  void aMasterThatWasNeverActiveWritesNothing() throws Exception {
    TableStore store = new TableStore(oldZk, paths, new MasterEpoch(oldZk, paths));
    assertThrows(NotActiveMasterException.class, () -> store.create(meta("t", "ts1")));
  }

  private static TableMeta meta(String name, String server) {
    return TableMeta.newBuilder().setSpec(TableSpec.newBuilder().setName(name).setId(1))
        .addTablets(TabletLocation.newBuilder().setTablet(TabletSpec.newBuilder().setTabletId(0)).setServerId(server))
        .build();
  }

  private static TableMeta moveTo(TableMeta m, String server) {
    TableMeta.Builder b = m.toBuilder();
    b.getTabletsBuilder(0).setServerId(server);
    return b.build();
  }

  private static String owner(TableMeta m) {
    return m.getTablets(0).getServerId();
  }
}
