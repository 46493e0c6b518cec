package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.PolicyChange;
import org.logbase.client.Put;
import org.logbase.client.RowVersion;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.ServerInfo;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletCompaction;
import org.logbase.common.ClusterConfig;
import org.logbase.common.ColumnNotInSchemaException;
import org.logbase.common.Config;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.Row;
import org.logbase.common.ServerStoppingException;
import org.logbase.common.ValueTooLargeException;
import org.logbase.common.ZkPaths;
import org.logbase.common.rpc.BadConnectionLog;
import org.logbase.common.rpc.GrpcServerLogging;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.DecideRequest;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.OpenTabletsRequest;
import org.logbase.rpc.OpenTabletsResponse;
import org.logbase.rpc.PutRequest;
import org.logbase.rpc.ScanBatch;
import org.logbase.rpc.ScanRequest;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.SplitTabletRequest;
import org.logbase.rpc.TabletAdminServiceGrpc;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.rpc.TabletSpec;
import org.logbase.testing.Await;

/** One tablet server over real sockets, with a real ZooKeeper: serving, typed errors, bad input, session loss. */
class TabletServerTest {
  @TempDir Path dir;
  TestingServer zkServer;
  org.logbase.master.MasterServer master;
  TabletServer server;
  ManagedChannel channel;
  TabletServiceGrpc.TabletServiceBlockingStub data;

  @BeforeEach
  void start() throws Exception {
    zkServer = new TestingServer(true);
    // The timestamp oracle: every commit timestamp comes from the active master.
    master = org.logbase.master.MasterServer.start(Config.empty()
        .with(ClusterConfig.ZK_CONNECT, zkServer.getConnectString())
        .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 4000), "localhost", 0,
        new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
    startServer();
    // Through the master, which would close a tablet of a table it does not know.
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      client.admin().createTable(TableDefinition.builder("users")
          .columnGroup("profile", "name", "email").columnGroup("stats", "visits", "score").build(),
          "t".getBytes(StandardCharsets.UTF_8));
    }
    Await.until(Duration.ofSeconds(30), "the master opens tablet 0 on the server", () -> serves(USERS0));
  }

  /** Starts ts1 on the test's root and connects {@link #data} to it. */
  void startServer() throws Exception {
    server = new TabletServer();
    server.id = "ts1";
    server.port = 0;
    server.start(Config.empty()
        .with(ClusterConfig.ZK_CONNECT, zkServer.getConnectString())
        .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 4000)
        .with(ClusterConfig.FS_ROOT, dir.toUri().toString())
        .with(ClusterConfig.RPC_MAX_MESSAGE_BYTES, "1m")
        .with("tablet.value.max.bytes", "64k")
        .with(TabletServer.HEARTBEAT_MS, 200));
    channel = NettyChannelBuilder.forTarget("localhost:" + server.port()).usePlaintext()
        .maxInboundMessageSize(8 << 20).build();
    data = TabletServiceGrpc.newBlockingStub(channel);
  }

  /** ts1 as the master reports it once a heartbeat satisfying {@code reported} arrived. */
  ServerInfo.Load reportedLoad(LogBaseClient client, Predicate<ServerInfo.Load> reported) {
    ServerInfo.Load[] load = {null};
    Await.until(Duration.ofSeconds(30), "a heartbeat of ts1 that the test waits for", () -> {
      load[0] = client.admin().clusterStatus().servers().stream().filter(s -> s.serverId().equals("ts1"))
          .map(ServerInfo::load).filter(l -> l != null && reported.test(l)).findFirst().orElse(null);
      return load[0] != null;
    });
    return load[0];
  }

  @Test
  void aRestartedServerReportsItsWholeLogAndWhenItsCountersStarted() throws Exception {
    for (int i = 0; i < 200; i++) {
      data.put(put(String.format("r%04d", i), "name", new byte[100]).build());
    }
    Instant restart = Instant.now();
    channel.shutdownNow();
    server.close();
    startServer();
    Await.until(Duration.ofSeconds(30), "ts1 serves users/0 again", () -> serves(USERS0));
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      ServerInfo.Load load = reportedLoad(client, l -> !l.startedAt().isBefore(restart.truncatedTo(ChronoUnit.MILLIS)));
      // status used to show log=0 B: the bytes appended since the restart.
      assertTrue(load.logFileBytes() > 200 * 100, "the restarted server's log holds the 200 rows: " + load);
      assertTrue(load.appendedBytes() < load.logFileBytes(), load.toString());
    }
  }

  /**
   * A schema change that reached ZooKeeper but whose reopen never reached the server (here the test
   * writes it there itself): the server's heartbeat carries the fingerprint of the schema it serves
   * the tablet with, the real master finds it differs from the table's and opens the tablet again,
   * and the server takes the new policy in place. Reads honour max versions at once, so the get
   * shows when it has. Before, the tablet kept the old policy until the next alter, move or restart.
   */
  @Test
  void aTabletServedWithAnEarlierSchemaGetsTheTablesAtAHeartbeat() throws Exception {
    data.put(put("r", "visits", new byte[] {1}).build());
    data.put(put("r", "visits", new byte[] {2}).build());
    GetRequest twoVersions = GetRequest.newBuilder().setTablet(USERS0).setKey(bytes("r")).addColumns("visits")
        .setVersions(5).build();
    assertEquals(2, data.get(twoVersions).getVersionsCount());

    String path = new ZkPaths(ZkPaths.DEFAULT_ROOT).table("users");
    TableMeta.Builder meta = TableMeta.parseFrom(server.zk().getData().forPath(path)).toBuilder();
    for (ColumnGroupSpec.Builder g : meta.getSpecBuilder().getColumnGroupsBuilderList()) {
      if (g.getName().equals("stats")) {
        g.setMaxVersions(1);
      }
    }
    server.zk().setData().forPath(path, meta.build().toByteArray());

    Await.until(Duration.ofSeconds(30), "a heartbeat brings users/0 the table's schema (max versions 1)",
        () -> data.get(twoVersions).getVersionsCount() == 1);
    assertArrayEquals(new byte[] {2}, data.get(twoVersions).getVersions(0).getColumns(0).getValue().toByteArray());
  }

  /**
   * A request that names a table id other than the served tablet's table (the table was dropped and
   * created again under its name while this server still served the dropped one's tablet) is
   * refused as not served, so the client looks its tablet up again instead of writing into the
   * dropped table; a request that names no id (0) is taken at its word.
   */
  @Test
  void aRequestNamingAnotherTableIdIsNotServed() throws Exception {
    int id;
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      id = client.admin().describeTable("users").schema().id();
    }
    TabletRef other = USERS0.toBuilder().setTableId(id + 1).build();
    assertInstanceOf(NotServingTabletException.class, error(() -> data.put(put("a", "name", new byte[1]).setTablet(other).build())));
    assertInstanceOf(NotServingTabletException.class, error(() -> data.get(GetRequest.newBuilder().setTablet(other)
        .setKey(bytes("a")).build())));
    data.put(put("a", "name", new byte[] {1}).setTablet(USERS0.toBuilder().setTableId(id)).build());
    data.put(put("b", "name", new byte[] {2}).build());
    assertTrue(data.get(GetRequest.newBuilder().setTablet(USERS0.toBuilder().setTableId(id)).setKey(bytes("b")).build())
        .getFound());
  }

  /**
   * A second process of a running server's id (a double start, a stale pid file) refuses to start
   * before it touches the log. Its recovery used to seal the live server's log first (it failed
   * later, at the port or the registration); the live one went on acknowledging writes past the
   * seal, and when it died the next owner of its tablets replayed only up to the seal (an outside
   * tester lost 7,543 of 23,393 acknowledged writes so).
   */
  @Test
  void aSecondProcessOfARunningServersIdRefusesToStartBeforeItTouchesTheLog() throws Exception {
    data.put(put("a", "name", new byte[] {1}).build());
    String seals = new ZkPaths(ZkPaths.DEFAULT_ROOT).logSeals();
    CuratorFramework zk = server.zk();
    List<String> before = zk.checkExists().forPath(seals) == null ? List.of() : zk.getChildren().forPath(seals);
    TabletServer second = new TabletServer();
    second.id = "ts1";
    second.port = 0;
    IllegalStateException refused = assertThrows(IllegalStateException.class, () -> second.start(Config.empty()
        .with(ClusterConfig.ZK_CONNECT, zkServer.getConnectString())
        .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 1000) // waits 3 sessions for the first to go away
        .with(ClusterConfig.FS_ROOT, dir.toUri().toString())));
    assertTrue(refused.getMessage().contains("tablet server id 'ts1' is held by another live process"),
        refused.getMessage());
    List<String> after = zk.checkExists().forPath(seals) == null ? List.of() : zk.getChildren().forPath(seals);
    assertEquals(before, after, "the second process sealed nothing");
    data.put(put("b", "name", new byte[] {2}).build());
    assertTrue(data.get(GetRequest.newBuilder().setTablet(USERS0).setKey(bytes("b")).build()).getFound(),
        "the running server still takes writes");
  }

  /**
   * A server closes the tablets of a table whose drop ZooKeeper records, without the master's close
   * (which a server cut off from the master, or paused, never gets): before, it served them, and
   * took writes from clients whose locations predated the drop, until a heartbeat was reconciled.
   * Here the id is recorded as a drop records it while the table's metadata stays, so the master
   * never closes the tablet; the server must stop serving it by itself. Fails without {@link
   * DroppedTableCloser}.
   */
  @Test
  void aDropRecordedInZooKeeperClosesTheTablesTabletsWithoutTheMaster() throws Exception {
    int id;
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      id = client.admin().describeTable("users").schema().id();
    }
    data.put(put("a", "name", new byte[] {1}).build());
    server.zk().create().creatingParentsIfNeeded().forPath(new ZkPaths(ZkPaths.DEFAULT_ROOT).droppedTable(id));
    Await.until(Duration.ofSeconds(30), "ts1 closes tablet 0 of the dropped table", () -> !serves(USERS0));
    // From then on no open of the table's tablets serves, whatever its assignment: 0 (a split's own
    // open, not checked against the metadata) included, and a tablet this server never served.
    TabletAdminServiceGrpc.TabletAdminServiceBlockingStub admin = admin(60);
    TableSpec users = usersSpec();
    for (int tabletId : new int[] {0, 7}) {
      OpenTabletsResponse r = admin.openTablets(OpenTabletsRequest.newBuilder().addTablets(OpenTabletRequest
          .newBuilder().setTable(users).setTablet(TabletSpec.newBuilder().setTabletId(tabletId).setEndKey(bytes("t")))
          .setAssignment(0)).build());
      assertEquals(1, r.getLeftOutCount(), "an open of tablet " + tabletId + " of the dropped table was left out");
    }
    assertFalse(serves(USERS0), "an open of assignment 0 served a tablet of the dropped table again");
  }

  /**
   * Through the real master and server: an alter re-opens the tablets with the new policy and they
   * go on serving; compact reaches the server, each tablet is compacted and reports its numbers, the
   * rows read the same afterwards, and the next heartbeat carries the outcome to the status.
   */
  @Test
  void alterKeepsServingAndCompactReportsPerTabletWhatTheServerSaid() throws Exception {
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      TableDescription d = client.admin().alterColumnGroup("users", "stats",
          PolicyChange.builder().maxVersions(2).ttl(Duration.ofDays(1)).build());
      assertEquals(new StoragePolicy(2, 86_400_000L, BlockCompression.LZ4), d.policy("stats"));
      data.put(put("after-alter", "visits", new byte[] {7}).build());
      assertTrue(serves(USERS0));

      List<TabletCompaction> out = client.admin().compact("users");
      assertEquals(List.of(0, 1), out.stream().map(TabletCompaction::tabletId).toList());
      for (TabletCompaction c : out) {
        assertTrue(c.compacted(), c.error());
      }
      assertTrue(serves(USERS0), "served after the compaction");
      ServerInfo.Load load = reportedLoad(client, l -> !l.lastCompaction().isEmpty());
      assertTrue(load.lastCompaction().matches("users/\\d at .*: \\d+ -> \\d+ bytes, .*"), load.lastCompaction());
    }
  }

  /**
   * A stale open (an OpenTablets sent before a move's close and handled after it, here sent by the
   * test) must not serve the tablet again: the close of assignment 1 fences opens of 1 and older;
   * an open of assignment 2 (the tablet's next assignment) serves it. Without the fence the stale
   * open serves it (two servers would, after a real move).
   */
  @Test
  void anOpenOfAnAssignmentClosedHereIsRefused() throws Exception {
    TabletAdminServiceGrpc.TabletAdminServiceBlockingStub admin = admin(60);
    TableSpec users = usersSpec();
    admin.closeTablet(CloseTabletRequest.newBuilder().setTable("users").setTableId(users.getId()).setTabletId(0)
        .setAssignment(1).build());
    assertFalse(serves(USERS0), "closed");
    OpenTabletsResponse stale = admin.openTablets(OpenTabletsRequest.newBuilder().addTablets(OpenTabletRequest
        .newBuilder().setTable(users).setTablet(TabletSpec.newBuilder().setTabletId(0).setEndKey(bytes("t")))
        .setAssignment(1)).build());
    assertFalse(serves(USERS0), "a stale open (assignment 1, closed here) served the tablet again");
    assertEquals(List.of(USERS0.toBuilder().setTableId(users.getId()).build()), stale.getLeftOutList(),
        "the answer says the open was left out");
    assignUsers0(2);
    OpenTabletsResponse next = admin.openTablets(OpenTabletsRequest.newBuilder().addTablets(OpenTabletRequest
        .newBuilder().setTable(users).setTablet(TabletSpec.newBuilder().setTabletId(0).setEndKey(bytes("t")))
        .setAssignment(2)).build());
    assertTrue(serves(USERS0), "the next assignment opens it");
    assertEquals(List.of(), next.getLeftOutList());
  }

  /**
   * A close and an open of the same assignment, sent at once (a move's close reaching its source
   * while the failover's open of the tablet there is still being taken in): whichever comes first,
   * the tablet ends closed. Before, a close arriving after the open was admitted but before it was
   * queued found nothing to wait for and answered "closed"; the open then served the tablet, on this
   * server and on the one it moved to (a chaos run lost the writes sent here). The open names the
   * tablet first and then many tablets served already, so that it takes a while to be taken in; the
   * close is sent at a random moment of that.
   */
  @Test
  void aCloseRacingAnOpenOfTheSameAssignmentLeavesTheTabletClosed() throws Exception {
    TabletAdminServiceGrpc.TabletAdminServiceBlockingStub admin = admin(120);
    TabletAdminServiceGrpc.TabletAdminServiceFutureStub opens = TabletAdminServiceGrpc.newFutureStub(channel);
    TableSpec users = usersSpec();
    CloseTabletRequest.Builder close = CloseTabletRequest.newBuilder().setTable("users").setTableId(users.getId())
        .setTabletId(0);
    admin.closeTablet(close.setAssignment(1).build());
    assertFalse(serves(USERS0), "closed");
    OpenTabletRequest servedAlready = OpenTabletRequest.newBuilder().setTable(users)
        .setTablet(TabletSpec.newBuilder().setTabletId(1).setStartKey(bytes("t"))).build();
    Random random = new Random();
    ExecutorService closer = Executors.newSingleThreadExecutor();
    try {
      for (long assignment = 2; assignment <= 40; assignment++) {
        OpenTabletsRequest.Builder open = OpenTabletsRequest.newBuilder().addTablets(OpenTabletRequest.newBuilder()
            .setTable(users).setTablet(TabletSpec.newBuilder().setTabletId(0).setEndKey(bytes("t")))
            .setAssignment(assignment));
        for (int i = 0; i < 2000; i++) {
          open.addTablets(servedAlready);
        }
        assignUsers0(assignment); // as the master records it before it sends the open
        long delayNanos = random.nextInt(20_000_000);
        CloseTabletRequest closeNow = close.setAssignment(assignment).build();
        var opened = opens.withDeadlineAfter(120, TimeUnit.SECONDS).openTablets(open.build());
        Future<?> closed = closer.submit(() -> {
          LockSupport.parkNanos(delayNanos);
          return admin.closeTablet(closeNow);
        });
        closed.get(120, TimeUnit.SECONDS);
        opened.get(120, TimeUnit.SECONDS);
        assertFalse(serves(USERS0), "assignment " + assignment + " was closed (" + delayNanos / 1000
            + " µs after its open was sent), yet the open served the tablet");
      }
    } finally {
      closer.shutdownNow();
    }
  }

  /**
   * A close names the table id it means: before, a move's close of a new table's tablet closed the
   * tablet of a dropped table of that name left open here, and answered "closed" while the new one
   * went on serving (an independent review's test). And an open is carried out only if the
   * assignment in ZooKeeper gives the tablet to this server at the assignment the open names: one
   * that the fence here lets through (this process never had the close) but the assignment has
   * moved past is left out.
   */
  @Test
  void aCloseNamesItsTableAndAnOpenTheAssignmentMovedPastIsLeftOut() throws Exception {
    TabletAdminServiceGrpc.TabletAdminServiceBlockingStub admin = admin(60);
    TableSpec users = usersSpec();
    admin.closeTablet(CloseTabletRequest.newBuilder().setTable("users").setTableId(users.getId() + 1).setTabletId(0)
        .setAssignment(5).build());
    assertTrue(serves(USERS0), "a close of another table's tablet 0 of that name leaves this one");
    admin.closeTablet(CloseTabletRequest.newBuilder().setTable("users").setTableId(users.getId()).setTabletId(0)
        .setAssignment(5).build());
    assertFalse(serves(USERS0), "the close naming its table closes it");

    OpenTabletsRequest open6 = OpenTabletsRequest.newBuilder().addTablets(OpenTabletRequest.newBuilder().setTable(users)
        .setTablet(TabletSpec.newBuilder().setTabletId(0).setEndKey(bytes("t"))).setAssignment(6)).build();
    assertEquals(1, admin.openTablets(open6).getLeftOutCount(), "left out, and the answer says so");
    assertFalse(serves(USERS0), "an open of assignment 6 while ZooKeeper has 1 is left out");
    assignUsers0(6);
    assertEquals(0, admin.openTablets(open6).getLeftOutCount());
    assertTrue(serves(USERS0), "and carried out once ZooKeeper has it");
  }

  /**
   * A command from a master older than the one ZooKeeper records as active is refused, also by a
   * server that has had no command from the newer one (as after a restart): the fence reads the
   * active epoch from ZooKeeper, not from the commands it has had. Before, a restarted server
   * carried out a deposed master's split (a review's scenario). The successor here is simulated by
   * writing {@code /master-epoch}, as a master does when it becomes active.
   */
  @Test
  void aCommandFromAMasterOlderThanTheActiveOneIsRefusedByAServerThatNeverHeardFromTheNewOne() throws Exception {
    String epochPath = new ZkPaths(ZkPaths.DEFAULT_ROOT).masterEpoch();
    long deposed = ZkPaths.commandEpoch(server.zk().checkExists().forPath(epochPath).getVersion());
    server.zk().setData().forPath(epochPath, "successor:1".getBytes(StandardCharsets.UTF_8));
    TableSpec users = usersSpec();
    SplitTabletRequest split = SplitTabletRequest.newBuilder().setTable(users)
        .setTablet(TabletSpec.newBuilder().setTabletId(0).setEndKey(bytes("t"))).setSplitKey(bytes("k"))
        .setLeftId(7).setRightId(8).setMasterEpoch(deposed).build();
    assertInstanceOf(NotActiveMasterException.class, error(() -> admin(60).splitTablet(split)));
    CloseTabletRequest.Builder close = CloseTabletRequest.newBuilder().setTable("users").setTableId(users.getId())
        .setTabletId(0).setAssignment(99);
    assertInstanceOf(NotActiveMasterException.class, error(() -> admin(60).closeTablet(close.setMasterEpoch(deposed)
        .build())));
    assertTrue(serves(USERS0), "nothing the deposed master asked for was done");

    admin(60).closeTablet(close.setMasterEpoch(deposed + 1).build());
    assertFalse(serves(USERS0), "the active master's close is carried out");
  }

  /**
   * An open at the current assignment but with the schema from before an alter (a reconciler's
   * open sent before the alter and handled after the alter's own reopen) is left out: it would put
   * the old column groups back on the served tablet, and nothing would correct them (an independent
   * review's test; it fails when the ZooKeeper check compares no schema).
   */
  @Test
  void anOpenWithTheSchemaFromBeforeAnAlterIsLeftOut() throws Exception {
    TableSpec before = usersSpec();
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      client.admin().addColumnGroup("users", "extra", "more");
    }
    Await.until(Duration.ofSeconds(30), "the alter's reopen gives users/0 the new group", () -> {
      try {
        data.put(put("k1", "more", new byte[] {1}).build());
        return true;
      } catch (StatusRuntimeException e) {
        return false;
      }
    });
    // ZooKeeper has users/0 on ts1 at assignment 1: the stale open names exactly that.
    OpenTabletsResponse r = admin(60).openTablets(OpenTabletsRequest.newBuilder().addTablets(OpenTabletRequest
        .newBuilder().setTable(before).setTablet(TabletSpec.newBuilder().setTabletId(0).setEndKey(bytes("t")))
        .setAssignment(1)).build());
    assertEquals(1, r.getLeftOutCount(), "the answer says the open was left out");
    data.put(put("k2", "more", new byte[] {2}).build());
  }

  @Test
  void inputEchoedInErrorsIsCutShortAndBadNamesAreInvalid() throws Exception {
    String longName = "t".repeat(8000);
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      // Used to end in INTERNAL (RST_STREAM): the "does not exist" status was too large for a header.
      InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> client.admin().describeTable(longName));
      assertTrue(e.getMessage().contains("invalid table name 'ttt") && e.getMessage().contains("(8000 characters)"),
          e.getMessage());
      assertTrue(e.getMessage().length() < 400, e.getMessage());
    }
    StatusRuntimeException notServed = assertThrows(StatusRuntimeException.class, () -> data.get(GetRequest.newBuilder()
        .setTablet(TabletRef.newBuilder().setTable(longName)).setKey(bytes("k")).build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, notServed.getStatus().getCode());
    assertTrue(notServed.getStatus().getDescription().length() < 400, notServed.getStatus().getDescription());
    StatusRuntimeException badColumn = assertThrows(StatusRuntimeException.class,
        () -> data.put(put("k", "c".repeat(20_000), new byte[1]).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, badColumn.getStatus().getCode());
    assertTrue(badColumn.getStatus().getDescription().length() < 400, badColumn.getStatus().getDescription());
  }

  @Test
  void versionsOfARowComeNewestFirstWithDeletes() throws Exception {
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      Table users = client.table("users");
      byte[] k = "h".getBytes(StandardCharsets.UTF_8);
      long v1 = users.put(k, Map.of("name", utf8("v1"), "visits", utf8("1")));
      long v2 = users.put(k, Map.of("name", utf8("v2")));
      long deleted = users.delete(k);
      long v3 = users.put(k, Map.of("email", utf8("e3")));

      List<RowVersion> all = users.versions(k, List.of(), 0, 10);
      assertEquals(List.of("profile@" + v3 + " email=e3", "profile@" + deleted + " deleted",
          "stats@" + deleted + " deleted", "profile@" + v2 + " name=v2", "profile@" + v1 + " name=v1",
          "stats@" + v1 + " visits=1"), all.stream().map(TabletServerTest::show).toList());
      assertEquals(List.of("profile@" + v3 + " email=e3", "stats@" + deleted + " deleted"),
          users.versions(k, null, 0, 1).stream().map(TabletServerTest::show).toList());
      assertEquals(List.of("profile@" + v2 + " name=v2", "profile@" + v1 + " name=v1"),
          users.versions(k, List.of("name"), deleted - 1, 5).stream().map(TabletServerTest::show).toList());
      assertThrows(InvalidRequestException.class, () -> users.versions(k, null, 0, 1001));
      assertThrows(ColumnNotInSchemaException.class, () -> users.versions(k, List.of("nope"), 0, 2));
    }
  }

  private static String show(RowVersion v) {
    StringBuilder s = new StringBuilder(v.columnGroup() + "@" + v.timestamp());
    if (v.deleted()) {
      s.append(" deleted");
    }
    new TreeMap<>(v.columns()).forEach((c, value) -> s.append(' ').append(c).append('=')
        .append(new String(value, StandardCharsets.UTF_8)));
    return s.toString();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aValueFilterRunsOnTheServerAndCountsTowardsTheLimit() throws Exception {
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      Table users = client.table("users");
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        puts.add(Put.of(utf8(String.format("f%04d", i)), Map.of("name", utf8(i % 1000 == 7 ? "seven" : "n" + i),
            "email", utf8(i % 2 == 0 ? "even@x" : "odd@x"))));
      }
      users.batchPut(puts);
      long before = server.requestsServed();
      List<String> sevens = keys(users, ScanSpec.builder().keyPrefix(utf8("f")).valueEquals("name", utf8("seven"))
          .batchRows(100).columns("email"));
      assertEquals(List.of("f0007", "f1007", "f2007"), sevens);
      assertEquals(1, server.requestsServed() - before, "one scan request; the 2,997 other rows stayed on the server");
      assertEquals(List.of("f0000", "f0002"), keys(users, ScanSpec.builder().keyPrefix(utf8("f"))
          .valuePrefix("email", utf8("even")).limit(2)));
      try (Scanner s = users.scan(ScanSpec.builder().keyPrefix(utf8("f1007")).valueEquals("name", utf8("seven"))
          .columns("email").build())) {
        Row r = s.next();
        assertEquals(List.of("email"), List.copyOf(r.cells().keySet()), "the filter's column is not returned");
      }
      assertThrows(ColumnNotInSchemaException.class, () -> keys(users, ScanSpec.builder().valueEquals("nope", utf8("x"))));
    }
  }

  @Test
  void aReverseScanReturnsTheLastRowsLastFirstAcrossTablets() throws Exception {
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      Table users = client.table("users");
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        puts.add(Put.of(utf8(String.format("k%04d", i)), Map.of("name", utf8(i % 2 == 0 ? "even" : "odd"))));
      }
      for (int i = 0; i < 10; i++) { // beyond the split key "t": the second tablet
        puts.add(Put.of(utf8("u00" + i), Map.of("name", utf8("u"))));
      }
      users.batchPut(puts);
      // Forwards, the limit holds across tablets (a tablet streamed ahead had its own limit).
      assertEquals(13, keys(users, ScanSpec.builder().start(utf8("k0090")).limit(13).batchRows(4)).size());
      assertEquals(List.of("u009", "u008", "u007", "u006", "u005", "u004", "u003", "u002", "u001", "u000", "k0099",
          "k0098", "k0097"), keys(users, ScanSpec.builder().reverse(true).limit(13).batchRows(4)));
      assertEquals(List.of("k0098", "k0096", "k0094"), keys(users, ScanSpec.builder().end(utf8("t")).reverse(true)
          .limit(3).valueEquals("name", utf8("even"))));
      assertEquals(List.of("k0003", "k0002", "k0001", "k0000"), keys(users, ScanSpec.builder().keyPrefix(utf8("k"))
          .end(utf8("k0004")).reverse(true).limit(50)));
      assertThrows(IllegalArgumentException.class, () -> ScanSpec.builder().reverse(true).build());
    }
  }

  private static List<String> keys(Table t, ScanSpec.Builder spec) {
    try (Scanner s = t.scan(spec.build())) {
      return s.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList();
    }
  }

  @Test
  void aDecideForATransactionNeverPreparedHereIsAnsweredAndCounted() throws Exception {
    // A secondary whose transaction was settled through the primary gets such decides: harmless.
    long before = server.requestsServed();
    data.decide(DecideRequest.newBuilder().setStartTs(12345).setCommit(true).setCommitTs(12346)
        .setPrimaryTable("users").setPrimaryKey(bytes("elsewhere")).build());
    data.decide(DecideRequest.newBuilder().setStartTs(12347).setCommit(false).build());
    // A third request, sent once both decides were answered: a heartbeat that counts it read the
    // decide counter after both (it reads requests first), so it shows exactly what they counted.
    data.get(GetRequest.newBuilder().setTablet(USERS0).setKey(bytes("a")).build());
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      assertEquals(2, reportedLoad(client, l -> l.requests() >= before + 3).unknownDecides());
    }
  }

  /**
   * Records in ZooKeeper, as the master does before it sends an open, that ts1 serves tablet 0 of
   * "users" at {@code assignment} (servers carry out only the opens the assignment there names).
   */
  void assignUsers0(long assignment) throws Exception {
    String path = new ZkPaths(ZkPaths.DEFAULT_ROOT).table("users");
    TableMeta.Builder meta = TableMeta.parseFrom(server.zk().getData().forPath(path)).toBuilder();
    for (TabletLocation.Builder t : meta.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == 0) {
        t.setServerId("ts1").setAssignment(assignment);
      }
    }
    server.zk().setData().forPath(path, meta.build().toByteArray());
  }

  /** The server's admin calls (the master's), each within {@code seconds}. */
  TabletAdminServiceGrpc.TabletAdminServiceBlockingStub admin(int seconds) {
    return TabletAdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(seconds, TimeUnit.SECONDS);
  }

  /** The table "users" as the master describes it. */
  TableSpec usersSpec() throws Exception {
    try (LogBaseClient client = LogBaseClient.connect(zkServer.getConnectString())) {
      return SchemaProtos.toProto(client.admin().describeTable("users").schema());
    }
  }

  boolean serves(TabletRef tablet) {
    try {
      data.get(GetRequest.newBuilder().setTablet(tablet).setKey(bytes("a")).build());
      return true;
    } catch (StatusRuntimeException e) {
      if (RpcErrors.fromStatus(e, "get") instanceof NotServingTabletException) {
        return false;
      }
      throw e;
    }
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow();
    server.close();
    master.close();
    zkServer.close();
  }

  static ByteString bytes(String s) {
    return ByteString.copyFrom(s, StandardCharsets.UTF_8);
  }

  static final TabletRef USERS0 = TabletRef.newBuilder().setTable("users").setTabletId(0).build();

  PutRequest.Builder put(String key, String column, byte[] value) {
    return PutRequest.newBuilder().setTablet(USERS0).setKey(bytes(key))
        .addColumns(ColumnValue.newBuilder().setColumn(column).setValue(ByteString.copyFrom(value)));
  }

  LogBaseException error(Supplier<?> call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::get);
    return RpcErrors.fromStatus(e, "test call");
  }

  @Test
  void servesPutsGetsAndStreamingScans() {
    for (int i = 0; i < 1200; i++) {
      data.put(put(String.format("k%05d", i), "name", ("v" + i).getBytes(StandardCharsets.UTF_8)).build());
    }
    GetResponse g = data.get(GetRequest.newBuilder().setTablet(USERS0).setKey(bytes("k00042")).build());
    assertTrue(g.getFound());
    assertEquals("v42", g.getRow().getCells(0).getValue().toStringUtf8());
    assertFalse(data.get(GetRequest.newBuilder().setTablet(USERS0).setKey(bytes("nope")).build()).getFound());

    Iterator<ScanBatch> it = data.scan(ScanRequest.newBuilder().setTablet(USERS0).setBatchRows(100).build());
    List<String> keys = new ArrayList<>();
    int batches = 0;
    while (it.hasNext()) {
      batches++;
      it.next().getRowsList().forEach(r -> keys.add(r.getKey().toStringUtf8()));
    }
    assertEquals(1200, keys.size());
    assertEquals(12, batches, "server-side batches");
    assertEquals("k00000", keys.get(0));
    assertEquals("k01199", keys.get(1199));
    Iterator<ScanBatch> limited = data.scan(ScanRequest.newBuilder().setTablet(USERS0).setStartKey(bytes("k00100"))
        .setLimit(5).build());
    assertEquals(5, limited.next().getRowsCount());
    assertFalse(limited.hasNext());
  }

  /**
   * A scan batch stops near a quarter of the message limit (1m here) however many rows it may hold:
   * 500 rows of 60 KB were one 30 MB message, which a client whose limit is 8 MiB refuses.
   */
  @Test
  void aScanBatchOfLargeRowsStaysWithinAShareOfTheMessageLimit() {
    for (int i = 0; i < 200; i++) {
      data.put(put(String.format("k%05d", i), "name", new byte[60_000]).build());
    }
    Iterator<ScanBatch> it = data.scan(ScanRequest.newBuilder().setTablet(USERS0).build());
    int rows = 0;
    int batches = 0;
    while (it.hasNext()) {
      ScanBatch b = it.next();
      batches++;
      rows += b.getRowsCount();
      assertTrue(b.getSerializedSize() < (1 << 20) / 2, "a batch of " + b.getSerializedSize() + " bytes");
    }
    assertEquals(200, rows);
    // Each batch reads until it holds about a quarter of the limit, then stops: one row may pass it.
    assertTrue(batches >= 200 * 60_000 / ((1 << 20) / 4 + 60_000), batches + " batches");
  }

  /**
   * The bound holds where a large row follows small ones (a batch sized on the rows before
   * overshot: one 10-byte row, then a step of 40 rows of 60 KB), and for reverse scans, whose
   * batches were rows only (found by the review of this bound).
   */
  @Test
  void scanBatchesStayWithinTheirShareWithMixedRowsAndInReverse() {
    data.put(put("a0000", "name", new byte[10]).build());
    for (int i = 0; i < 40; i++) {
      data.put(put(String.format("k%05d", i), "name", new byte[60_000]).build());
    }
    for (ScanRequest req : List.of(ScanRequest.newBuilder().setTablet(USERS0).build(),
        ScanRequest.newBuilder().setTablet(USERS0).setReverse(true).setLimit(41).build())) {
      Iterator<ScanBatch> it = data.scan(req);
      int max = 0;
      int rows = 0;
      while (it.hasNext()) {
        ScanBatch b = it.next();
        max = Math.max(max, b.getSerializedSize());
        rows += b.getRowsCount();
      }
      assertEquals(41, rows);
      assertTrue(max < (1 << 20) / 2, (req.getReverse() ? "reverse" : "forward") + ": a batch of " + max + " bytes");
    }
  }

  @Test
  void concurrentClientPutsShareRequestsAndOnlyTheBadOnesFail() throws Exception {
    int threads = 16;
    int each = 50;
    try (org.logbase.client.LogBaseClient client = org.logbase.client.LogBaseClient.connect(zkServer.getConnectString())) {
      org.logbase.client.Table users = client.table("users");
      users.put("c-warm".getBytes(StandardCharsets.UTF_8), java.util.Map.of("name", new byte[] {1}));
      long before = server.requestsServed();
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
      try {
        List<java.util.concurrent.Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          writers.add(pool.submit(() -> {
            for (int i = 0; i < each; i++) {
              byte[] key = ("c-" + thread + "-" + i).getBytes(StandardCharsets.UTF_8);
              if (i % 10 == 7) {
                // Bad input travelling with good writes: only this write may fail.
                assertThrows(ColumnNotInSchemaException.class,
                    () -> users.put(key, java.util.Map.of("no_such_column", key)));
              } else {
                users.put(key, java.util.Map.of("name", key));
              }
            }
            return null;
          }));
        }
        for (java.util.concurrent.Future<?> w : writers) {
          w.get();
        }
      } finally {
        pool.shutdownNow();
      }
      long requests = server.requestsServed() - before;
      int writes = threads * each;
      assertTrue(requests < writes, "16 threads' " + writes + " puts took " + requests + " requests: none travelled together");
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < each; i++) {
          byte[] key = ("c-" + t + "-" + i).getBytes(StandardCharsets.UTF_8);
          org.logbase.common.Row row = users.get(key);
          if (i % 10 == 7) {
            assertEquals(null, row, "refused write left nothing");
          } else {
            assertArrayEquals(key, row.cells().get("name").value());
          }
        }
      }
    }
  }

  @Test
  void aServerThatFailsToStartLeavesNoThreadsBehind(@TempDir Path otherRoot) {
    long logThreadsBefore = logThreads();
    TabletServer second = new TabletServer();
    second.id = "ts2";
    second.port = server.port(); // taken: the RPC server cannot bind, after the engine has opened
    Exception e = assertThrows(Exception.class, () -> second.start(Config.empty()
        .with(ClusterConfig.ZK_CONNECT, zkServer.getConnectString())
        .with(ClusterConfig.FS_ROOT, otherRoot.toUri().toString())));
    assertTrue(String.valueOf(e).contains("bind") || String.valueOf(e.getCause()).contains("in use"),
        "fails on the taken port: " + e);
    Await.until("the failed server's log threads are gone", () -> logThreads() == logThreadsBefore);
    assertTrue(server.tabletsServing(), "the first server is unaffected");
  }

  private static long logThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && (t.getName().startsWith("log-writer-") || t.getName().startsWith("log-acker-")))
        .count();
  }

  @Test
  void badRequestsGetTypedErrorsAndTheServerStaysUp() throws Exception {
    assertInstanceOf(NotServingTabletException.class, error(() -> data.get(GetRequest.newBuilder()
        .setTablet(TabletRef.newBuilder().setTable("nosuchtable")).setKey(bytes("a")).build())));
    assertInstanceOf(ColumnNotInSchemaException.class, error(() -> data.put(put("a", "nosuchcolumn", new byte[1]).build())));
    assertInstanceOf(ValueTooLargeException.class, error(() -> data.put(put("a", "name", new byte[100_000]).build())));
    assertInstanceOf(ValueTooLargeException.class, error(() -> data.put(put(
        new String(new byte[40_000], StandardCharsets.ISO_8859_1), "name", new byte[1]).build())));
    LogBaseException tooBig = error(() -> data.put(put("a", "name", new byte[2 << 20]).build()));
    assertInstanceOf(ValueTooLargeException.class, tooBig, "message size limit: " + tooBig.getMessage());
    assertInstanceOf(InvalidRequestException.class, error(() -> data.put(put("", "name", new byte[1]).build())));
    assertTrue(error(() -> data.put(put("z", "name", new byte[1]).build())).getMessage().contains("outside tablet"));

    // Garbage on the RPC port: the connection is dropped, the server keeps serving.
    for (int i = 0; i < 3; i++) {
      try (Socket s = new Socket("localhost", server.port())) {
        OutputStream out = s.getOutputStream();
        out.write("GET / HTTP/1.1\r\n\r\n\u0000\u0001garbage".getBytes(StandardCharsets.ISO_8859_1));
        byte[] junk = new byte[4096];
        new java.util.Random(i).nextBytes(junk);
        out.write(junk);
        out.flush();
      }
    }
    data.put(put("still", "name", "up".getBytes(StandardCharsets.UTF_8)).build());
    assertEquals("up", data.get(GetRequest.newBuilder().setTablet(USERS0).setKey(bytes("still")).build())
        .getRow().getCells(0).getValue().toStringUtf8());
  }

  @Test
  void eachBadConnectionIsOneRateLimitedLineNotAStackTrace() throws Exception {
    // What gRPC's own logging (java.util.logging) still passes on, and what LogBase logs instead.
    var grpcConnections = LogManager.getLogManager().getLogger(
        "io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport.connections");
    List<LogRecord> passedOn = new CopyOnWriteArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord record) {
        passedOn.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    StringWriter lines = new StringWriter();
    WriterAppender appender = new WriterAppender(new PatternLayout("%m%n"), lines);
    Logger.getLogger(BadConnectionLog.class).addAppender(appender);
    grpcConnections.addHandler(handler);
    try {
      long before = GrpcServerLogging.badConnections();
      for (int i = 0; i < 30; i++) {
        try (Socket s = new Socket("localhost", server.port())) {
          s.getOutputStream().write("GET / HTTP/1.1\r\n\r\ngarbage".getBytes(StandardCharsets.ISO_8859_1));
        }
      }
      Await.until("the server noticed 30 bad connections", () -> GrpcServerLogging.badConnections() >= before + 30);
      // Each used to write a "Transport failed" stack trace of some 20 lines.
      assertEquals(List.of(), passedOn.stream().map(LogRecord::getMessage).toList());
      List<String> logged = lines.toString().lines().toList();
      assertTrue(logged.size() <= 10, "at most ten lines a minute: " + logged);
      assertTrue(logged.stream().allMatch(l -> l.startsWith("bad connection closed (") && !l.contains("\tat ")), logged.toString());
    } finally {
      grpcConnections.removeHandler(handler);
      Logger.getLogger(BadConnectionLog.class).removeAppender(appender);
    }
  }

  @Test
  void losingTheZooKeeperSessionStopsServingAtOnce() throws Exception {
    data.put(put("a", "name", new byte[1]).build());
    assertTrue(zkServer.getConnectString().length() > 0);
    KillSession.kill(server.zk().getZookeeperClient().getZooKeeper());
    assertTrue(server.awaitStopped(Duration.ofSeconds(30)), "server still serving 30 s after its session was killed");
    assertFalse(server.tabletsServing());
    assertInstanceOf(ServerStoppingException.class, error(() -> data.get(GetRequest.newBuilder().setTablet(USERS0)
        .setKey(bytes("a")).build())));
    assertTrue(new ZkPaths(ZkPaths.DEFAULT_ROOT).server("ts1").endsWith("/servers/ts1"));
  }

  /**
   * A log that stops taking writes for good (here its writer thread is interrupted; a failure
   * applying a durable batch does the same) is never brought back: the server must stop and exit, so that
   * its tablets are recovered elsewhere, instead of keeping them and refusing their writes.
   */
  @Test
  void aLogThatStopsForGoodStopsTheServer() throws Exception {
    // Started again, to tell its log's writer thread from those other tests may have left behind.
    channel.shutdownNow();
    server.close();
    Set<Thread> others = logWriters();
    startServer();
    Await.until(Duration.ofSeconds(30), "ts1 serves users/0 again", () -> serves(USERS0));
    data.put(put("a", "name", new byte[1]).build());
    List<Thread> writers = logWriters().stream().filter(t -> !others.contains(t)).toList();
    assertEquals(1, writers.size(), "the server's log writer: " + writers);
    writers.get(0).interrupt();
    assertTrue(server.awaitStopped(Duration.ofSeconds(30)), "server still serving 30 s after its log stopped");
    assertFalse(server.tabletsServing());
    assertInstanceOf(ServerStoppingException.class, error(() -> data.get(GetRequest.newBuilder().setTablet(USERS0)
        .setKey(bytes("a")).build())));
  }

  private static Set<Thread> logWriters() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("log-writer-"))
        .collect(Collectors.toSet());
  }

  @Test
  void writeTimingsArePublishedOverJmxAndAddUp() throws Exception {
    javax.management.ObjectName serverBeans = org.logbase.common.Jmx.pattern("TabletServer", "WritePath");
    javax.management.ObjectName clientBeans = org.logbase.common.Jmx.pattern("Client", "Writes");
    int clientsBefore = beans(clientBeans).size();
    long[] before = sums(serverBeans, "Requests", "Rows", "NanosUntilAppended", "NanosUntilDurable", "OracleCalls");
    long[] clientSide;
    try (org.logbase.client.LogBaseClient client = org.logbase.client.LogBaseClient.connect(zkServer.getConnectString())) {
      assertEquals(clientsBefore + 1, beans(clientBeans).size(), "a connected client publishes its bean");
      org.logbase.client.Table users = client.table("users");
      for (int i = 0; i < 20; i++) {
        byte[] key = ("jmx-" + i).getBytes(StandardCharsets.UTF_8);
        users.put(key, java.util.Map.of("name", key)); // one at a time: one request each
      }
      clientSide = sums(clientBeans, "Requests", "Rows", "RoundTripNanos");
    }
    assertEquals(clientsBefore, beans(clientBeans).size(), "a closed client unpublishes its bean");
    long[] after = sums(serverBeans, "Requests", "Rows", "NanosUntilAppended", "NanosUntilDurable", "OracleCalls");
    long requests = after[0] - before[0];
    long appended = after[2] - before[2];
    long durable = after[3] - before[3];
    assertEquals(20, requests);
    assertEquals(20, after[1] - before[1]);
    assertTrue(appended > 0 && durable > appended, "appended " + appended + " ns, durable " + durable + " ns");
    assertTrue(after[4] - before[4] >= 20, "every write took a timestamp from the oracle");
    assertEquals(20, clientSide[0]);
    assertEquals(20, clientSide[1]);
    assertTrue(clientSide[2] > durable, "a round trip includes the server's time: " + clientSide[2] + " vs " + durable);
  }

  private static java.util.Set<javax.management.ObjectName> beans(javax.management.ObjectName pattern) {
    return java.lang.management.ManagementFactory.getPlatformMBeanServer().queryNames(pattern, null);
  }

  /** Each attribute summed over the beans matching {@code pattern}. */
  private static long[] sums(javax.management.ObjectName pattern, String... attributes) throws Exception {
    javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
    long[] sums = new long[attributes.length];
    for (javax.management.ObjectName name : server.queryNames(pattern, null)) {
      for (int i = 0; i < attributes.length; i++) {
        sums[i] += (Long) server.getAttribute(name, attributes[i]);
      }
    }
    return sums;
  }
}
