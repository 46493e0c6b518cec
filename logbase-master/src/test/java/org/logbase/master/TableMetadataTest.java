package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import java.util.UUID;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import org.logbase.common.TableExistsException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.AddColumnGroupRequest;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.ClusterStatusResponse;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.ListTablesRequest;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.ServerLoad;
import org.logbase.rpc.ServerStatus;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletRef;
import org.logbase.testing.Await;

/** Table metadata through the active master's RPCs, with three fake tablet master.servers(). */
class TableMetadataTest {
  @RegisterExtension static final ZooKeeperExtension ZK = new ZooKeeperExtension();
  @RegisterExtension final ActiveMasterExtension master = new ActiveMasterExtension(ZK, "ts-1", "ts-2", "ts-3");

  @Test
  void createWithSplitKeysMakesTabletsAndSpreadsThemEvenly() {
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.createRequest("users",
        List.of(MasterAdmin.group("profile", "name", "email"), MasterAdmin.group("stats", "visits")),
        "b", "d", "f", "h", "j")));

    assertTrue(meta.getSpec().getId() > 0);
    assertEquals(List.of(0, 1), meta.getSpec().getColumnGroupsList().stream().map(ColumnGroupSpec::getId).toList());
    assertEquals(2, meta.getNextColumnGroupId());
    List<String> bounds = List.of("", "b", "d", "f", "h", "j", "");
    assertEquals(6, meta.getTabletsCount());
    for (int i = 0; i < 6; i++) {
      TabletLocation t = meta.getTablets(i);
      assertEquals(i, t.getTablet().getTabletId());
      assertEquals(bounds.get(i), t.getTablet().getStartKey().toStringUtf8(), "start of tablet " + i);
      assertEquals(bounds.get(i + 1), t.getTablet().getEndKey().toStringUtf8(), "end of tablet " + i);
      assertEquals(master.servers().get(t.getServerId()).address(), t.getAddress());
    }
    assertEquals(Map.of("ts-1", 2L, "ts-2", 2L, "ts-3", 2L), tabletsPerServer(meta));

    // Each server was asked to open exactly its tablets, with the table's id and schema.
    for (TabletLocation t : meta.getTabletsList()) {
      List<OpenTabletRequest> opens = master.servers().get(t.getServerId()).opensOf("users", t.getTablet().getTabletId());
      assertEquals(1, opens.size(), "opens of tablet " + t.getTablet().getTabletId());
      assertEquals(meta.getSpec(), opens.get(0).getTable());
      assertEquals(t.getTablet(), opens.get(0).getTablet());
    }
    assertEquals(6, master.servers().values().stream().mapToInt(s -> s.opens().size()).sum());
    assertEquals(meta, master.admin().call(s -> s.describeTable(MasterAdmin.table("users"))));
    assertEquals(meta, master.admin().call(s -> s.getTabletLocations(MasterAdmin.table("users"))));
  }

  @Test
  void newTabletsGoToTheServersWithFewestTablets() {
    master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("a", "m")));       // ts-1, ts-2
    TableMeta b = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("b"))); // ts-3 has none
    TableMeta c = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("c", "m", "t")));
    assertEquals("ts-3", b.getTablets(0).getServerId());
    assertEquals(List.of("ts-1", "ts-2", "ts-3"),
        c.getTabletsList().stream().map(TabletLocation::getServerId).toList());
  }

  @Test
  void aCreateSentAgainWithItsRequestIdFindsItsTableAndAnotherCreateIsRefused() {
    CreateTableRequest first = CreateTableRequest.newBuilder(MasterAdmin.simpleTable("again", "m"))
        .setRequestId("request-1").build();
    TableMeta made = master.admin().call(s -> s.createTable(first));
    // The answer was lost (a master failover, say) and the client sends the same request again.
    TableMeta again = master.admin().call(s -> s.createTable(first));
    assertEquals(made.getSpec().getId(), again.getSpec().getId(), "the same table, not a second one");
    assertThrows(TableExistsException.class, () -> master.admin().call(s -> s.createTable(
        CreateTableRequest.newBuilder(MasterAdmin.simpleTable("again", "m")).setRequestId("request-2").build())));
  }

  @Test
  void typedErrorsForExistingAndUnknownTables() {
    master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    assertThrows(TableExistsException.class, () -> master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t"))));

    assertThrows(TableNotFoundException.class, () -> master.admin().call(s -> s.describeTable(MasterAdmin.table("nope"))));
    assertThrows(TableNotFoundException.class,
        () -> master.admin().call(s -> s.getTabletLocations(MasterAdmin.table("nope"))));
    assertThrows(TableNotFoundException.class, () -> master.admin().call(s -> s.dropTable(MasterAdmin.drop("nope"))));
    assertThrows(TableNotFoundException.class, () -> master.admin().call(s -> s.addColumnGroup(
        AddColumnGroupRequest.newBuilder().setTable("nope").setColumnGroup(MasterAdmin.group("g", "x")).build())));
    assertThrows(InvalidRequestException.class, () -> master.admin().call(s -> s.describeTable(MasterAdmin.table(""))));
    assertThrows(InvalidRequestException.class, () -> master.admin().call(s -> s.describeTable(MasterAdmin.table("a/b"))));
  }

  @Test
  void invalidSpecsAreRefusedWithClearMessages() {
    assertInvalid("at least one column group", MasterAdmin.createRequest("t", List.of()));
    assertInvalid("column group 'g' appears twice", MasterAdmin.createRequest("t",
        List.of(MasterAdmin.group("g", "a"), MasterAdmin.group("g", "b"))));
    assertInvalid("more than one column group", MasterAdmin.createRequest("t",
        List.of(MasterAdmin.group("g1", "a"), MasterAdmin.group("g2", "a"))));
    assertInvalid("has no columns", MasterAdmin.createRequest("t", List.of(MasterAdmin.group("g"))));
    assertInvalid("invalid table name", MasterAdmin.simpleTable("1table"));
    assertInvalid("invalid table name", MasterAdmin.simpleTable("a b"));
    assertInvalid("invalid column name", MasterAdmin.createRequest("t", List.of(MasterAdmin.group("g", "bad col"))));
    assertInvalid("sorted and distinct", MasterAdmin.simpleTable("t", "m", "c"));
    assertInvalid("sorted and distinct", MasterAdmin.simpleTable("t", "m", "m"));
    assertInvalid("split key 0 is empty", MasterAdmin.simpleTable("t", ""));
    // 20 split keys of 30,000 bytes: each allowed, but 1.2 MB of metadata, more than ZooKeeper takes
    // in one write (it dropped the master's session instead of answering).
    String[] huge = new String[20];
    for (int i = 0; i < huge.length; i++) {
      huge[i] = String.format("%02d", i) + "x".repeat(30_000);
    }
    assertInvalid("use fewer tablets or shorter split keys", MasterAdmin.simpleTable("t", huge));
    // The same size in columns: the advice is about columns then.
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < 25_000; i++) {
      columns.add("column_" + i + "_" + "x".repeat(20));
    }
    assertInvalid("use fewer or shorter columns", MasterAdmin.createRequest("t",
        List.of(MasterAdmin.group("g", columns.toArray(String[]::new)))));
    // Split keys compare as unsigned bytes: 0x7f < 0x80.
    master.admin().call(s -> s.createTable(CreateTableRequest.newBuilder(MasterAdmin.simpleTable("bytes"))
        .addSplitKeys(ByteString.copyFrom(new byte[] {0x7f}))
        .addSplitKeys(ByteString.copyFrom(new byte[] {(byte) 0x80}))
        .build()));

    assertEquals(List.of("bytes"), master.admin().call(s -> s.listTables(ListTablesRequest.getDefaultInstance())).getNamesList());
    assertEquals(3, master.servers().values().stream().mapToInt(s -> s.opens().size()).sum(), "only the valid table opened");
  }

  @Test
  void aServerGetsAllItsTabletsOfATableInOneRequest() {
    String[] keys = new String[299];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("k%04d", i);
    }
    master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("wide", keys)));
    for (FakeTabletServer server : master.servers().values()) {
      assertEquals(List.of(100), server.openBatches(), "one OpenTablets request with all of " + server.id() + "'s tablets");
    }
  }

  @Test
  void tooManyTabletsAreRefusedAtCreateWithTheLimitNamedAndNothingOpened() {
    String[] keys = new String[TableLimits.DEFAULT.maxTabletsPerTable()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("k%06d", i);
    }
    assertInvalid("a table has at most 4096 (master.table.max.tablets)", MasterAdmin.simpleTable("huge", keys));
    assertEquals(List.of(), master.admin().call(s -> s.listTables(ListTablesRequest.getDefaultInstance())).getNamesList());
    assertEquals(0, master.servers().values().stream().mapToInt(s -> s.opens().size()).sum(), "nothing opened");
  }

  @Test
  void addColumnGroupTakesTheNextIdAndReopensEveryTablet() {
    master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", "g", "p")));
    TableMeta once = master.admin().call(s -> s.addColumnGroup(addGroup("t", MasterAdmin.group("extra", "x", "y"))));
    TableMeta twice = master.admin().call(s -> s.addColumnGroup(addGroup("t", MasterAdmin.group("more", "z"))));

    assertEquals(List.of(0, 1), once.getSpec().getColumnGroupsList().stream().map(ColumnGroupSpec::getId).toList());
    assertEquals(2, once.getNextColumnGroupId());
    assertEquals(List.of(0, 1, 2), twice.getSpec().getColumnGroupsList().stream().map(ColumnGroupSpec::getId).toList());
    assertEquals(3, twice.getNextColumnGroupId());
    assertEquals(once.getSpec().getId(), twice.getSpec().getId());
    for (TabletLocation t : twice.getTabletsList()) {
      List<OpenTabletRequest> opens = master.servers().get(t.getServerId()).opensOf("t", t.getTablet().getTabletId());
      assertEquals(3, opens.size(), "create and two schema changes");
      assertEquals(twice.getSpec(), opens.get(2).getTable());
    }

    assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.addColumnGroup(addGroup("t", MasterAdmin.group("again", "x")))));
    assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.addColumnGroup(addGroup("t", MasterAdmin.group("extra", "w")))));
    assertEquals(twice, master.admin().call(s -> s.describeTable(MasterAdmin.table("t"))), "refused changes left no trace");
  }

  /**
   * A drop does not wait for a server whose session expired while its close was under way (paused,
   * cut off): it serves nothing now. It waited out the whole command deadline (29 s in an outside
   * tester's run), and a client with a shorter deadline got "outcome unknown".
   */
  @Test
  void aDropDoesNotWaitForAServerThatIsNoLongerLive() throws Exception {
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    FakeTabletServer held = master.servers().get(meta.getTablets(0).getServerId());
    held.holdCloses();
    try {
      CompletableFuture<Void> drop = CompletableFuture.runAsync(() -> master.admin().call(s -> s.dropTable(MasterAdmin.drop("t"))));
      Await.until("the close reaches the server", () -> held.closes().stream().anyMatch(c -> c.getTable().equals("t")));
      held.unregister(); // its session expired
      drop.get(20, TimeUnit.SECONDS); // the close is held 30 s, and the command deadline is about as long
    } finally {
      held.letClosesGo();
    }
  }

  @Test
  void aCreateDoesNotWaitForAServerThatIsNoLongerLive() throws Exception {
    List<FakeTabletServer> all = List.copyOf(master.servers().values());
    FakeTabletServer held = all.get(0);
    held.holdOpens();
    try {
      // Four tablets per server: every server, the held one too, gets some.
      String[] splits = new String[4 * all.size() - 1];
      for (int i = 0; i < splits.length; i++) {
        splits[i] = String.format("k%02d", i);
      }
      CompletableFuture<TableMeta> create = CompletableFuture.supplyAsync(
          () -> master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", splits))));
      Await.until("the open reaches the held server", () -> create.isDone() || held.opens().stream()
          .anyMatch(o -> o.getTable().getName().equals("t")));
      assertFalse(create.isDone(), "the create waits for the held server: " + create);
      held.unregister(); // its session expired
      TableMeta meta = create.get(20, TimeUnit.SECONDS); // the open is held 30 s, the command deadline about as long
      assertEquals(4 * all.size(), meta.getTabletsCount());
    } finally {
      held.letOpensGo();
    }
  }

  @Test
  void dropTableRemovesItAndClosesItsTablets() throws Exception {
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", "k")));
    master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("other")));
    master.admin().call(s -> s.dropTable(MasterAdmin.drop("t")));

    assertEquals(List.of("other"), master.admin().call(s -> s.listTables(ListTablesRequest.getDefaultInstance())).getNamesList());
    assertThrows(TableNotFoundException.class, () -> master.admin().call(s -> s.describeTable(MasterAdmin.table("t"))));
    assertThrows(TableNotFoundException.class, () -> master.admin().call(s -> s.dropTable(MasterAdmin.drop("t"))));
    for (TabletLocation t : meta.getTabletsList()) {
      assertTrue(master.servers().get(t.getServerId()).closes().stream()
          .anyMatch(c -> c.getTable().equals("t") && c.getTabletId() == t.getTablet().getTabletId()));
    }
    // The drop recorded the table's id, for the tablet servers' log collection.
    assertTrue(master.cluster().zk().checkExists().forPath(master.cluster().paths().droppedTable(meta.getSpec().getId()))
        != null, "the dropped table's id is recorded");
    // The name is free again, and the new table gets a new id.
    TableMeta again = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    assertTrue(again.getSpec().getId() > meta.getSpec().getId());
  }

  @Test
  void aDropSentAgainWithItsRequestIdIsAnsweredAsDoneAndDropsNothingMore() {
    master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    String requestId = UUID.randomUUID().toString();
    master.admin().call(s -> s.dropTable(MasterAdmin.drop("t", requestId)));
    // Created again by someone else before the retry arrives: the retry must not drop it.
    TableMeta again = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    master.admin().call(s -> s.dropTable(MasterAdmin.drop("t", requestId)));
    assertEquals(again, master.admin().call(s -> s.describeTable(MasterAdmin.table("t"))));
    // Another request (or none) drops it; after that, one without a record finds nothing.
    master.admin().call(s -> s.dropTable(MasterAdmin.drop("t", UUID.randomUUID().toString())));
    assertThrows(TableNotFoundException.class,
        () -> master.admin().call(s -> s.dropTable(MasterAdmin.drop("t", UUID.randomUUID().toString()))));
    assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.dropTable(MasterAdmin.drop("t", "../../tables/other"))));
  }

  @Test
  void listTablesIsSorted() {
    for (String name : List.of("zeta", "alpha", "mid")) {
      master.admin().call(s -> s.createTable(MasterAdmin.simpleTable(name)));
    }
    assertEquals(List.of("alpha", "mid", "zeta"),
        master.admin().call(s -> s.listTables(ListTablesRequest.getDefaultInstance())).getNamesList());
  }

  @Test
  void heartbeatReopensATabletTheServerDoesNotServe() {
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", "b", "d", "f", "h", "j")));
    List<Integer> ofTs1 = meta.getTabletsList().stream().filter(t -> t.getServerId().equals("ts-1"))
        .map(t -> t.getTablet().getTabletId()).toList();
    assertEquals(2, ofTs1.size());
    int served = ofTs1.get(0);
    int missing = ofTs1.get(1);
    FakeTabletServer ts1 = master.servers().get("ts-1");

    master.admin().call(s -> s.heartbeat(heartbeat(ts1, ServerLoad.newBuilder().setTablets(1).build(),
        TabletRef.newBuilder().setTable("t").setTabletId(served).build())));

    Await.until("tablet " + missing + " re-opened on ts-1", () -> ts1.opensOf("t", missing).size() == 2);
    assertEquals(1, ts1.opensOf("t", served).size(), "a served tablet is left alone");
  }

  /**
   * A schema change whose re-open failed on a server (unreachable, or refused) left the tablet served
   * there with the old column groups until the next change, move or restart of that server. A
   * heartbeat says which schema each tablet is served with now, and the master opens again, with the
   * table's schema, a tablet served with another; one served with the table's schema is left alone.
   */
  @Test
  void heartbeatReopensATabletServedWithAnEarlierSchema() {
    TableMeta created = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", "b", "d", "f", "h", "j")));
    List<Integer> ofTs1 = created.getTabletsList().stream().filter(t -> t.getServerId().equals("ts-1"))
        .map(t -> t.getTablet().getTabletId()).toList();
    assertEquals(2, ofTs1.size());
    int stale = ofTs1.get(0);
    int other = ofTs1.get(1);
    FakeTabletServer ts1 = master.servers().get("ts-1");
    ts1.failOpens(true);
    TableMeta altered = master.admin().call(s -> s.alterColumnGroup(AlterColumnGroupRequest.newBuilder()
        .setTable("t").setColumnGroup("cf").setMaxVersions(3).build()));
    ts1.failOpens(false);
    long before = SchemaProtos.fromProto(created.getSpec()).fingerprint();
    long now = SchemaProtos.fromProto(altered.getSpec()).fingerprint();
    assertNotEquals(before, now);
    int staleOpens = ts1.opensOf("t", stale).size();
    int otherOpens = ts1.opensOf("t", other).size();

    // Served with the table's schema: left alone (the other tablet's open, sent in the same batch
    // as any open of this heartbeat, is the barrier).
    master.admin().call(s -> s.heartbeat(heartbeat(ts1, ServerLoad.newBuilder().setTablets(1).build(),
        TabletRef.newBuilder().setTable("t").setTabletId(stale).setSchemaFingerprint(now).build())));
    Await.until("barrier: the unserved tablet opened", () -> ts1.opensOf("t", other).size() == otherOpens + 1);
    assertEquals(staleOpens, ts1.opensOf("t", stale).size(), "a tablet served with its table's schema is left alone");

    // Served with the schema from before the change: opened again, with the table's schema now.
    master.admin().call(s -> s.heartbeat(heartbeat(ts1, ServerLoad.newBuilder().setTablets(2).build(),
        TabletRef.newBuilder().setTable("t").setTabletId(stale).setSchemaFingerprint(before).build(),
        TabletRef.newBuilder().setTable("t").setTabletId(other).setSchemaFingerprint(now).build())));
    Await.until("the tablet served with the earlier schema opened again",
        () -> ts1.opensOf("t", stale).size() == staleOpens + 1);
    OpenTabletRequest reopen = ts1.opensOf("t", stale).get(staleOpens);
    assertEquals(3, reopen.getTable().getColumnGroups(0).getMaxVersions(), "opened with the table's schema now");
    assertEquals(otherOpens + 1, ts1.opensOf("t", other).size(), "sent in one batch: the current one was not");
  }

  @Test
  void aFailedOpenDoesNotFailTheCreateAndTheNextHeartbeatRetriesIt() {
    FakeTabletServer ts2 = master.servers().get("ts-2");
    ts2.failOpens(true);
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", "m", "t")));
    int onTs2 = meta.getTabletsList().stream().filter(t -> t.getServerId().equals("ts-2"))
        .findFirst().orElseThrow().getTablet().getTabletId();
    assertEquals(1, ts2.opensOf("t", onTs2).size());

    ts2.failOpens(false);
    master.admin().call(s -> s.heartbeat(heartbeat(ts2, ServerLoad.getDefaultInstance())));
    Await.until("open retried after the heartbeat", () -> ts2.opensOf("t", onTs2).size() == 2);
  }

  /**
   * A server still serving a tablet of a dropped table whose name a new table has (the drop's close
   * failed there): the heartbeat says which table id it serves, and the master closes that one by
   * its id and opens the new table's tablet. Before, the name alone counted: the dropped table's
   * tablet passed for the new one's, stayed open and answered for it.
   */
  @Test
  void heartbeatClosesATabletOfADroppedTableWhoseNameATableHasAgain() {
    TableMeta dropped = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    master.admin().call(s -> s.dropTable(MasterAdmin.drop("t")));
    TableMeta again = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    String owner = again.getTablets(0).getServerId();
    FakeTabletServer server = master.servers().get(owner);
    int opensBefore = server.opensOf("t", 0).size();
    int oldId = dropped.getSpec().getId();
    int newId = again.getSpec().getId();

    master.admin().call(s -> s.heartbeat(heartbeat(server, ServerLoad.newBuilder().setTablets(2).build(),
        TabletRef.newBuilder().setTable("t").setTabletId(0).setTableId(oldId).build(),
        TabletRef.newBuilder().setTable("gone").setTabletId(4).build())));
    Await.until("the dropped table's tablet closed by its id", () -> server.closes().stream()
        .anyMatch(c -> c.getTable().equals("t") && c.getTabletId() == 0 && c.getTableId() == oldId));
    Await.until("barrier: the other dropped table's close", () -> server.closes().stream()
        .anyMatch(c -> c.getTable().equals("gone") && c.getTabletId() == 4));
    assertEquals(opensBefore, server.opensOf("t", 0).size(), "not opened beside the close of its namesake");
    // Not opened beside that close (the server would refuse it while the other is served): at the
    // next heartbeat, which no longer lists the dropped table's tablet.
    master.admin().call(s -> s.heartbeat(heartbeat(server, ServerLoad.getDefaultInstance(),
        TabletRef.newBuilder().setTable("gone").setTabletId(5).build())));
    Await.until("barrier: the next heartbeat's close", () -> server.closes().stream()
        .anyMatch(c -> c.getTable().equals("gone") && c.getTabletId() == 5));
    Await.until("the new table's tablet opened", () -> server.opensOf("t", 0).size() == opensBefore + 1);

    // Served as the new table's now; a dropped table's tablet in the same heartbeat is closed after
    // it is looked at, and is waited for.
    master.admin().call(s -> s.heartbeat(heartbeat(server, ServerLoad.newBuilder().setTablets(2).build(),
        TabletRef.newBuilder().setTable("t").setTabletId(0).setTableId(newId).build(),
        TabletRef.newBuilder().setTable("gone").setTabletId(6).build())));
    Await.until("tablet of a dropped table closed", () -> server.closes().stream()
        .anyMatch(c -> c.getTable().equals("gone") && c.getTabletId() == 6));
    assertFalse(server.closes().stream().anyMatch(c -> c.getTable().equals("t") && c.getTableId() == newId),
        "the new table's tablet is left alone");
    assertEquals(opensBefore + 1, server.opensOf("t", 0).size(), "and not opened again");
  }

  @Test
  void heartbeatClosesTabletsOfDroppedTables() {
    FakeTabletServer ts3 = master.servers().get("ts-3");
    master.admin().call(s -> s.heartbeat(heartbeat(ts3, ServerLoad.getDefaultInstance(),
        TabletRef.newBuilder().setTable("gone").setTabletId(4).build())));
    Await.until("tablet of a dropped table closed", () -> ts3.closes().stream()
        .anyMatch(c -> c.getTable().equals("gone") && c.getTabletId() == 4));
  }

  /**
   * A server that heartbeat here and is gone, with no tablet left (failover moved them), is still
   * listed, as not live: status used to drop it, and an operator saw one server fewer and no DEAD line.
   */
  @Test
  void clusterStatusListsAServerThatHeartbeatAndDiedWithNoTablets() throws Exception {
    FakeTabletServer ts2 = master.servers().get("ts-2");
    master.admin().call(s -> s.heartbeat(heartbeat(ts2, ServerLoad.newBuilder().setTablets(0).build())));
    ts2.unregister();
    ClusterStatusResponse status = master.admin().call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance()));
    ServerStatus gone = status.getServersList().stream().filter(x -> x.getServerId().equals("ts-2")).findFirst()
        .orElseThrow(() -> new AssertionError("ts-2 is not listed: " + status.getServersList()));
    assertFalse(gone.getLive());
    assertEquals(List.of(), gone.getTabletsList());
  }

  @Test
  void clusterStatusReportsLoadsAssignmentsAndServersThatAreNotLive() throws Exception {
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t", "k", "s")));
    FakeTabletServer ts1 = master.servers().get("ts-1");
    ServerLoad load = ServerLoad.newBuilder().setTablets(1).setRequests(42).setRequestsPerSecond(1.5).build();
    master.admin().call(s -> s.heartbeat(heartbeat(ts1, load, TabletRef.newBuilder().setTable("t").setTabletId(0).build())));
    master.servers().get("ts-3").unregister();

    ClusterStatusResponse status = master.admin().call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance()));
    assertEquals(1, status.getTables());
    assertEquals(1, status.getMastersCount());
    assertEquals(status.getMasters(0), status.getActiveMaster());
    Map<String, ServerStatus> byId = status.getServersList().stream()
        .collect(Collectors.toMap(ServerStatus::getServerId, Function.identity()));
    assertEquals(List.of("ts-1", "ts-2", "ts-3"), status.getServersList().stream().map(ServerStatus::getServerId).toList());
    assertEquals(load, byId.get("ts-1").getLoad());
    assertEquals(List.of("t/0"), byId.get("ts-1").getTabletsList());
    assertEquals(ts1.address(), byId.get("ts-1").getAddress());
    assertTrue(byId.get("ts-1").getLive());
    assertFalse(byId.get("ts-3").getLive(), "assigned tablets but not live");
    assertEquals(List.of("t/2"), byId.get("ts-3").getTabletsList());

    // Locations of tablets whose server is not live carry no address.
    TableMeta now = master.admin().call(s -> s.getTabletLocations(MasterAdmin.table("t")));
    assertEquals("", now.getTablets(2).getAddress());
    assertEquals(meta.getTablets(0).getAddress(), now.getTablets(0).getAddress());
  }

  @Test
  void createWithoutLiveServersFailsClearly() throws Exception {
    for (FakeTabletServer s : master.servers().values()) {
      s.unregister();
    }
    LogBaseException e = assertThrows(LogBaseException.class,
        () -> master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("t"))));
    assertSame(LogBaseException.class, e.getClass());
    assertTrue(e.getMessage().contains("no tablet server is live"), e.getMessage());
    assertTrue(master.admin().call(s -> s.listTables(ListTablesRequest.getDefaultInstance())).getNamesList().isEmpty());
  }

  private void assertInvalid(String messagePart, CreateTableRequest request) {
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.createTable(request)));
    assertTrue(e.getMessage().contains(messagePart), "'" + e.getMessage() + "' should mention '" + messagePart + "'");
  }

  private static AddColumnGroupRequest addGroup(String table, ColumnGroupSpec group) {
    return AddColumnGroupRequest.newBuilder().setTable(table).setColumnGroup(group).build();
  }

  private static HeartbeatRequest heartbeat(FakeTabletServer server, ServerLoad load, TabletRef... serving) {
    return HeartbeatRequest.newBuilder().setServerId(server.id()).setAddress(server.address()).setLoad(load)
        .addAllServing(List.of(serving)).build();
  }

  private static Map<String, Long> tabletsPerServer(TableMeta meta) {
    return meta.getTabletsList().stream()
        .collect(Collectors.groupingBy(TabletLocation::getServerId, Collectors.counting()));
  }
}
