package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.LogBaseException;
import org.logbase.common.OperationFailedException;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.MoveTabletRequest;
import org.logbase.rpc.MoveTabletResponse;
import org.logbase.rpc.SplitRequest;
import org.logbase.rpc.SplitResponse;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.logbase.testing.Await;

/**
 * Moves and splits cut short by the active master's death, and admin requests sent again after
 * one: the move is recorded in ZooKeeper before its source is asked to close the tablet, and the
 * next master finishes it, or rolls it back so the source serves the tablet again. Real masters and
 * ZooKeeper; fake tablet servers that can hold or fail closes.
 */
class PendingMovesTest {
  @RegisterExtension static final ZooKeeperExtension ZK = new ZooKeeperExtension();

  private MasterTestCluster cluster;
  private FakeTabletServer s1;
  private FakeTabletServer s2;

  @BeforeEach
  void start() throws Exception {
    cluster = new MasterTestCluster(ZK.server());
    Map<String, FakeTabletServer> servers = cluster.startTabletServers("s1", "s2");
    s1 = servers.get("s1");
    s2 = servers.get("s2");
  }

  @AfterEach
  void stop() throws Exception {
    s1.letClosesGo();
    s2.letClosesGo();
    cluster.close();
  }

  @Test
  void aMoveCutShortByTheMastersDeathIsFinishedByTheNextAndItsRetryAnswersFromIt() throws Exception {
    String requestId = UUID.randomUUID().toString();
    CutShort cut = moveHeldAtTheClose(requestId);
    MasterTestCluster.Pair masters = cut.masters();
    MasterAdmin first = cut.first();
    TabletLocation before = cut.before();
    FakeTabletServer source = cut.source();
    FakeTabletServer target = cut.target();
    CompletableFuture<MoveTabletResponse> cutShort = cut.move();
    TabletLocation recorded = tablet(first);
    assertEquals(target.id(), recorded.getMove().getToServer(), "the move is recorded before the close");
    assertEquals(requestId, recorded.getMove().getRequestId());
    assertEquals(before.getServerId(), recorded.getServerId());

    cluster.expireSession(masters.active());
    MasterAdmin second = cluster.admin(cluster.awaitActive(masters.standby()));
    List<String> shown = second.call(s -> s.clusterStatus(ClusterStatusRequest.getDefaultInstance()))
        .getMovesInProgressList();
    assertEquals(List.of("t/0 " + source.id() + " -> " + target.id()), shown, "the new master shows the pending move");
    source.letClosesGo();

    Await.until("the next master finishes the move", () -> tablet(second).getServerId().equals(target.id()));
    TabletLocation after = tablet(second);
    assertFalse(after.hasMove());
    assertEquals(before.getAssignment() + 1, after.getAssignment());
    assertEquals(requestId, after.getDone().getRequestId());
    Await.until("the target is asked to open it", () -> !target.opensOf("t", 0).isEmpty());
    assertEquals(after.getAssignment(), last(target.opensOf("t", 0)).getAssignment());
    assertThrows(Exception.class, () -> cutShort.get(40, TimeUnit.SECONDS), "the deposed master's move fails");
    assertEquals(before.getAssignment(), tablet(second).getAssignment() - 1, "the deposed master changed nothing");

    int closes = closesOf(source);
    MoveTabletResponse retried = second.call(s -> s.moveTablet(move(requestId, target.id())));
    assertEquals(target.id(), retried.getToServer());
    assertEquals(source.id(), retried.getFromServer());
    assertEquals(closes, closesOf(source), "the retry found its move done and closed nothing");
    assertEquals(after, tablet(second));
  }

  /**
   * A target that leaves the move's open out (its ZooKeeper check found another assignment, or it
   * had a close of that one) does not serve the tablet: the move is answered as failed, not as
   * done, and the reconciliation opens the tablet on the target after its next heartbeat.
   */
  @Test
  void aMoveWhoseOpenTheTargetLeavesOutIsNotAnsweredAsDone() throws Exception {
    MasterAdmin admin = cluster.admin(cluster.awaitActive(cluster.startMaster()));
    TabletLocation before = createOneTablet(admin);
    FakeTabletServer source = server(before.getServerId());
    FakeTabletServer target = source == s1 ? s2 : s1;
    target.leaveOutOpens(true);

    LogBaseException failed = assertThrows(LogBaseException.class,
        () -> admin.call(s -> s.moveTablet(move(UUID.randomUUID().toString(), target.id()))));
    assertTrue(failed.getMessage().contains("left the open out"), failed.getMessage());
    // Not "internal error": the move happened, the open failed, and the message says what comes next.
    assertInstanceOf(OperationFailedException.class, failed, failed.toString());
    assertTrue(failed.getMessage().startsWith("tablet t/0 is moved to " + target.id() + " but its open there failed"),
        failed.getMessage());
    assertEquals(target.id(), tablet(admin).getServerId(), "assigned to the target");

    target.leaveOutOpens(false);
    int opens = target.opensOf("t", 0).size();
    heartbeat(admin, target);
    Await.until("the target is asked to open it again", () -> target.opensOf("t", 0).size() > opens);
  }

  @Test
  void aMoveWhoseCloseFailsIsRolledBackAndTheSourceIsGivenTheTabletWithANewerAssignment() throws Exception {
    MasterAdmin admin = cluster.admin(cluster.awaitActive(cluster.startMaster()));
    TabletLocation before = createOneTablet(admin);
    FakeTabletServer source = server(before.getServerId());
    FakeTabletServer target = source == s1 ? s2 : s1;
    source.failCloses(true);

    LogBaseException failed = assertThrows(LogBaseException.class,
        () -> admin.call(s -> s.moveTablet(move(UUID.randomUUID().toString(), target.id()))));
    assertTrue(failed.getMessage().contains("rolled back"), failed.getMessage());
    assertInstanceOf(OperationFailedException.class, failed, failed.toString());
    TabletLocation after = tablet(admin);
    assertEquals(source.id(), after.getServerId());
    assertFalse(after.hasMove());
    CloseTabletRequest close = last(source.closes());

    // The source may have closed it: it refuses an open no newer than that close.
    heartbeat(admin, source);
    Await.until("the source is given the tablet again", () -> source.opensOf("t", 0).size() > 1);
    assertTrue(last(source.opensOf("t", 0)).getAssignment() > close.getAssignment(),
        "the open after the rollback is newer than the close the source had");
    assertTrue(target.opensOf("t", 0).isEmpty());
  }

  @Test
  void aMovePendingToATargetThatDiedIsRolledBackByTheNextMaster() throws Exception {
    CutShort cut = moveHeldAtTheClose(UUID.randomUUID().toString());
    MasterTestCluster.Pair masters = cut.masters();
    TabletLocation before = cut.before();
    FakeTabletServer source = cut.source();
    FakeTabletServer target = cut.target();
    CompletableFuture<MoveTabletResponse> cutShort = cut.move();
    cluster.expireSession(masters.active());
    target.unregister();
    MasterAdmin second = cluster.admin(cluster.awaitActive(masters.standby()));
    source.letClosesGo();

    Await.until("the next master rolls the move back", () -> !tablet(second).hasMove());
    TabletLocation after = tablet(second);
    assertEquals(source.id(), after.getServerId());
    assertEquals(before.getAssignment() + 1, after.getAssignment());
    assertThrows(Exception.class, () -> cutShort.get(40, TimeUnit.SECONDS));
    heartbeat(second, source);
    Await.until("the source is given the tablet again", () -> source.opensOf("t", 0).size() > 1);
    assertEquals(after.getAssignment(), last(source.opensOf("t", 0)).getAssignment());
  }

  @Test
  void aSplitSentAgainWithItsRequestIdAnswersFromTheSplitItMadeAndSplitsNothingMore() throws Exception {
    MasterAdmin admin = cluster.admin(cluster.awaitActive(cluster.startMaster()));
    createOneTablet(admin);
    SplitRequest split = SplitRequest.newBuilder().setTable("t").setTabletId(0)
        .setSplitKey(ByteString.copyFromUtf8("k")).setRequestId(UUID.randomUUID().toString()).build();
    SplitResponse done = admin.call(s -> s.splitTablet(split));
    TableMeta meta = admin.call(s -> s.describeTable(MasterAdmin.table("t")));
    assertEquals(2, meta.getTabletsCount());

    assertEquals(done, admin.call(s -> s.splitTablet(split)));
    assertEquals(meta, admin.call(s -> s.describeTable(MasterAdmin.table("t"))));
    assertEquals(1, s1.splits().size() + s2.splits().size(), "one split sent to a server");

    SplitRequest other = split.toBuilder().setRequestId(UUID.randomUUID().toString()).build();
    assertThrows(LogBaseException.class, () -> admin.call(s -> s.splitTablet(other)),
        "another request for the same tablet finds it gone");
  }

  /** A move under way, its source holding the close: the active master can be killed at that moment. */
  record CutShort(MasterTestCluster.Pair masters, MasterAdmin first, TabletLocation before, FakeTabletServer source,
      FakeTabletServer target, CompletableFuture<MoveTabletResponse> move) {}

  /** Two masters, a table of one tablet, and a move of it (as request {@code requestId}) held at its close. */
  private CutShort moveHeldAtTheClose(String requestId) throws Exception {
    MasterTestCluster.Pair masters = cluster.startActiveAndStandby();
    MasterAdmin first = cluster.admin(masters.active());
    TabletLocation before = createOneTablet(first);
    FakeTabletServer source = server(before.getServerId());
    FakeTabletServer target = source == s1 ? s2 : s1;
    source.holdCloses();
    CompletableFuture<MoveTabletResponse> move = CompletableFuture.supplyAsync(
        () -> first.call(s -> s.moveTablet(move(requestId, target.id()))));
    Await.until("the source is asked to close the tablet", () -> closesOf(source) == 1);
    return new CutShort(masters, first, before, source, target, move);
  }

  private TabletLocation createOneTablet(MasterAdmin admin) {
    admin.call(s -> s.createTable(MasterAdmin.simpleTable("t")));
    TabletLocation t = tablet(admin);
    Await.until("the tablet is opened", () -> !server(t.getServerId()).opensOf("t", 0).isEmpty());
    return t;
  }

  private static TabletLocation tablet(MasterAdmin admin) {
    return admin.call(s -> s.describeTable(MasterAdmin.table("t"))).getTabletsList().stream()
        .filter(t -> t.getTablet().getTabletId() == 0).findFirst().orElseThrow();
  }

  private FakeTabletServer server(String id) {
    return id.equals(s1.id()) ? s1 : s2;
  }

  private static int closesOf(FakeTabletServer server) {
    return (int) server.closes().stream().filter(c -> c.getTable().equals("t")).count();
  }

  /** A heartbeat from {@code server} serving nothing: the reconciler opens what it should serve. */
  private static void heartbeat(MasterAdmin admin, FakeTabletServer server) {
    admin.call(s -> s.heartbeat(HeartbeatRequest.newBuilder().setServerId(server.id())
        .setAddress(server.address()).build()));
  }

  private static MoveTabletRequest move(String requestId, String to) {
    return MoveTabletRequest.newBuilder().setTable("t").setTabletId(0).setServerId(to).setRequestId(requestId).build();
  }

  private static <T> T last(List<T> list) {
    assertFalse(list.isEmpty());
    return list.get(list.size() - 1);
  }
}
