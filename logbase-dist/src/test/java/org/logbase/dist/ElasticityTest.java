package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.ClusterStatus;
import org.logbase.client.LogBaseClient;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.TabletMove;
import org.logbase.client.TabletSplit;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.testing.Await;
import org.logbase.testing.ChildProcess;

/**
 * Tablets that move while clients write (issue #11), as separate processes on HDFS: an operator's
 * move, a server that joins and gets tablets from the balancer, a server decommissioned and drained
 * (the clients see retries only, no failed operation); and moves whose source or target is killed
 * with kill -9 at a random moment (no acknowledged write lost, every tablet served by exactly one
 * server afterwards); splits asked for and splits cut short by kill -9; and, with no operator
 * asking, splits of tablets grown past the size threshold and a busy tablet moved off a busy server.
 */
class ElasticityTest {
  static final String TABLE = FailoverTest.TABLE;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir;

  @Test
  void aMoveAJoiningServerAndADecommissionUnderLoadFailNoOperationAndLoseNoWrite() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 3, true, Map.of("master.balancer.interval.ms", "1000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      TableDescription table = createTable(admin);
      assertTrue(admin.admin().setBalancer(false), "the balancer is on by default");
      load.start();
      load.awaitAcked(1000);

      // An operator's move (with the balancer off, so that it does not move the tablet back).
      TabletInfo t = table.tablets().stream().filter(x -> x.serverId().equals("ts1")).findFirst().orElseThrow();
      TabletMove m = admin.admin().moveTablet(TABLE, t.tabletId(), "ts2");
      System.out.printf("ELASTIC: moved tablet %d from %s to %s: no writes taken for %d ms%n", m.tabletId(),
          m.fromServer(), m.toServer(), m.unavailableMs());
      assertEquals("ts2", serverOf(admin, t.tabletId()));
      assertServedByExactlyOne(cluster, List.of("ts1", "ts2", "ts3"), t);
      load.awaitAcked(load.acked() + 1000);

      // A server joins: the balancer gives it tablets.
      admin.admin().setBalancer(true);
      cluster.startTabletServer("ts4").await(l -> l.startsWith("TABLETSERVER READY"), LocalCluster.START);
      long joined = System.nanoTime();
      Await.until(Duration.ofSeconds(90), "ts4 serves 2 tablets", () -> tabletsOf(admin, "ts4") >= 2);
      System.out.printf("ELASTIC: the joining server ts4 had 2 tablets %d ms after it was ready%n",
          (System.nanoTime() - joined) / 1_000_000);
      load.awaitAcked(load.acked() + 1000);

      // A server is decommissioned: its tablets leave, then it can be stopped.
      int had = admin.admin().decommission("ts1");
      long drained = System.nanoTime();
      Await.until(Duration.ofSeconds(90), "ts1 drained", () -> tabletsOf(admin, "ts1") == 0);
      System.out.printf("ELASTIC: ts1 drained of its %d tablets in %d ms%n", had, (System.nanoTime() - drained) / 1_000_000);
      ClusterStatus status = admin.admin().clusterStatus();
      assertTrue(status.servers().stream().anyMatch(s -> s.serverId().equals("ts1") && s.draining()),
          "status shows ts1 decommissioning: " + status);
      load.awaitAcked(load.acked() + 1000);
      cluster.tabletServers.get("ts1").kill9();
      load.awaitAcked(load.acked() + 1000);

      load.stopAndCheck(admin);
      assertEquals(0, load.failures(), "clients saw retries only, no failed operation");
      for (TabletInfo x : admin.admin().describeTable(TABLE).tablets()) {
        assertServedByExactlyOne(cluster, List.of("ts2", "ts3", "ts4"), x);
      }
    }
  }

  @Test
  void aMoveWhoseSourceOrTargetIsKilledLosesNoAcknowledgedWriteAndEndsServedByExactlyOneServer() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    System.out.println("ELASTIC: seed " + seed);
    try (LocalCluster cluster = new LocalCluster(dir, 1, 4, true, Map.of("master.balancer.interval.ms", "600000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      TableDescription table = createTable(admin);
      admin.admin().setBalancer(false);
      load.start();
      load.awaitAcked(1000);

      // The source dies during the move.
      int first = table.tablets().stream().filter(x -> x.serverId().equals("ts1")).findFirst().orElseThrow().tabletId();
      killDuringMove(cluster, admin, first, "ts1", "ts2", "ts1", random.nextInt(400));
      load.awaitAcked(load.acked() + 1000);

      // The target dies during the move.
      int second = admin.admin().describeTable(TABLE).tablets().stream().filter(x -> x.serverId().equals("ts2"))
          .findFirst().orElseThrow().tabletId();
      killDuringMove(cluster, admin, second, "ts2", "ts3", "ts3", random.nextInt(400));
      load.awaitAcked(load.acked() + 1000);

      load.stopAndCheck(admin);
      for (TabletInfo x : admin.admin().describeTable(TABLE).tablets()) {
        assertServedByExactlyOne(cluster, List.of("ts2", "ts4"), x);
      }
    }
  }

  @Test
  void splitsUnderLoadOneOfThemCutShortByKill9LoseNoWriteAndEndWithTheDaughtersServed() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    System.out.println("ELASTIC: seed " + seed);
    try (LocalCluster cluster = new LocalCluster(dir, 2, 3, true, Map.of("master.balancer.interval.ms", "1000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      TableDescription table = createTable(admin);
      admin.admin().setBalancer(false);
      load.start();
      load.awaitAcked(2000);

      // A tablet with nothing to split: refused, and nothing is left pending (it can still move).
      TableDescription empty = admin.admin().createTable(
          TableDefinition.builder("empty").columnGroup("g", "c").build(), Bytes.utf8("m"));
      TabletInfo e0 = empty.tablets().get(0);
      LogBaseException refused = assertThrows(LogBaseException.class,
          () -> admin.admin().splitTablet("empty", e0.tabletId(), null));
      assertTrue(refused.getMessage().contains("nothing to split"), refused.getMessage());
      TabletMove emptyMoved = admin.admin().moveTablet("empty", e0.tabletId(), null);
      assertEquals(2, admin.admin().describeTable("empty").tablets().size(), "no split happened");
      System.out.printf("ELASTIC: split of an empty tablet refused (%s); it moved afterwards to %s%n",
          refused.getMessage(), emptyMoved.toServer());

      // A key longer than a row key may be: refused before anything is recorded.
      LogBaseException tooLong = assertThrows(LogBaseException.class,
          () -> admin.admin().splitTablet(TABLE, 1, Bytes.utf8("k1-" + "x".repeat(40_000))));
      assertTrue(tooLong.getMessage().contains("a key has at most"), tooLong.getMessage());

      // At a key, then at the middle.
      TabletInfo k3 = tabletHolding(table, "k3-x");
      TabletSplit atKey = admin.admin().splitTablet(TABLE, k3.tabletId(), Bytes.utf8("k3-w2"));
      assertEquals("k3-w2", Bytes.toStringBinary(atKey.key()));
      TabletInfo k5 = tabletHolding(table, "k5-x");
      TabletSplit atMiddle = admin.admin().splitTablet(TABLE, k5.tabletId(), null);
      System.out.printf("ELASTIC: split tablet %d at k3-w2 into %d and %d; tablet %d at its middle %s into %d and %d%n",
          k3.tabletId(), atKey.leftId(), atKey.rightId(), k5.tabletId(), Bytes.toStringBinary(atMiddle.key()),
          atMiddle.leftId(), atMiddle.rightId());
      TableDescription after = admin.admin().describeTable(TABLE);
      assertEquals(10, after.tablets().size(), "two tablets became four: " + after.tablets());
      for (TabletInfo t : after.tablets()) {
        assertServedByExactlyOne(cluster, List.of("ts1", "ts2", "ts3"), t);
      }
      load.awaitAcked(load.acked() + 1000);

      // The server dies in the middle of a split: failover gives the tablet, split pending, to
      // another server, and the master finishes the split there.
      String victim = "ts2";
      TabletInfo onVictim = after.tablets().stream().filter(t -> t.serverId().equals(victim)).findFirst().orElseThrow();
      killDuring("splitting tablet " + onVictim.tabletId(), () -> splitOutcome(admin, onVictim.tabletId()),
          cluster.tabletServers.get(victim), victim, random.nextInt(300));
      awaitSplitAndServed(admin, onVictim.tabletId(), 11, victim);
      load.awaitAcked(load.acked() + 1000);

      // The active master dies in the middle of a split: the next one finishes it.
      String activeMaster = cluster.masterAt(admin.admin().clusterStatus().activeMaster());
      TabletInfo onTs1 = admin.admin().describeTable(TABLE).tablets().stream().filter(t -> t.serverId().equals("ts1"))
          .findFirst().orElseThrow();
      killDuring("splitting tablet " + onTs1.tabletId(), () -> splitOutcome(admin, onTs1.tabletId()),
          cluster.masters.get(activeMaster), "the active master " + activeMaster, random.nextInt(300));
      awaitSplitAndServed(admin, onTs1.tabletId(), 12, victim);
      load.awaitAcked(load.acked() + 1000);
      load.stopAndCheck(admin);
      for (TabletInfo t : admin.admin().describeTable(TABLE).tablets()) {
        assertServedByExactlyOne(cluster, List.of("ts1", "ts3"), t);
      }
    }
  }

  @Test
  void tabletsPastTheSizeThresholdSplitByThemselvesAndAHotTabletMovesToTheQuietServer() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 2, true, Map.of("master.balancer.interval.ms", "1000",
            "tabletserver.heartbeat.interval.ms", "500", "master.split.versions", "200", "master.table.max.tablets", "12",
            "master.balancer.load.min.requests.per.second", "20"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      createTable(admin);
      load.start();

      // Splits by size, while the balancer evens out the counts: no operator asks.
      long t0 = System.nanoTime();
      Await.until(Duration.ofSeconds(180), "the table split by itself to its 12 tablets at most",
          () -> admin.admin().describeTable(TABLE).tablets().size() == 12);
      System.out.printf("ELASTIC: the table grew from 8 to 12 tablets by itself in %d ms (split past 200 versions)%n",
          (System.nanoTime() - t0) / 1_000_000);
      load.awaitAcked(load.acked() + 2000); // splits refused at the limit from now on: the table stays served
      load.stopAndCheck(admin);
      assertEquals(12, admin.admin().describeTable(TABLE).tablets().size(), "no tablet beyond the table's limit");
      admin.admin().setBalancer(false); // returns once a move under way has ended
      for (TabletInfo t : admin.admin().describeTable(TABLE).tablets()) {
        assertServedByExactlyOne(cluster, List.of("ts1", "ts2"), t);
      }

      // Two busy tablets on one server: the balancer moves one of them to the other server.
      TableDescription hot = admin.admin().createTable(TableDefinition.builder("hot").columnGroup("g", "c").build(),
          Bytes.utf8("m"));
      for (TabletInfo t : hot.tablets()) {
        admin.table("hot").put(Bytes.utf8(t.startKey().length == 0 ? "a" : "z"), Map.of("c", Bytes.utf8("v")));
        if (!t.serverId().equals("ts1")) {
          admin.admin().moveTablet("hot", t.tabletId(), "ts1");
        }
      }
      AtomicBoolean reading = new AtomicBoolean(true);
      AtomicLong reads = new AtomicLong();
      List<CompletableFuture<Void>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(CompletableFuture.runAsync(() -> {
          try (LogBaseClient c = LogBaseClient.connect(cluster.zkConnect())) {
            while (reading.get()) {
              c.table("hot").get(Bytes.utf8(reads.incrementAndGet() % 2 == 0 ? "a" : "z"));
            }
          }
        }));
      }
      admin.admin().setBalancer(true);
      long t1 = System.nanoTime();
      Await.until(Duration.ofSeconds(120), "the two busy tablets on different servers", () -> admin.admin()
          .describeTable("hot").tablets().stream().map(TabletInfo::serverId).distinct().count() == 2);
      System.out.printf("ELASTIC: of two busy tablets on ts1, the balancer moved one to ts2 in %d ms (%d reads)%n",
          (System.nanoTime() - t1) / 1_000_000, reads.get());
      reading.set(false);
      for (CompletableFuture<Void> f : readers) {
        f.get(1, TimeUnit.MINUTES); // a failed read fails the test here
      }
    }
  }

  /** Waits until {@code parent} is gone, the table has {@code tablets} tablets and each answers on a live server. */
  private static void awaitSplitAndServed(LogBaseClient admin, int parent, int tablets, String dead) {
    Await.until(Duration.ofSeconds(120), "tablet " + parent + " split and every tablet served", () -> {
      TableDescription now = admin.admin().describeTable(TABLE);
      if (now.tablets().size() != tablets || now.tablets().stream().anyMatch(t -> t.tabletId() == parent)) {
        return false;
      }
      for (TabletInfo t : now.tablets()) {
        if (t.serverId().equals(dead) || !t.hasServer()) {
          return false;
        }
        try {
          admin.table(TABLE).get(Bytes.utf8(keyIn(t)));
        } catch (LogBaseException e) {
          return false;
        }
      }
      return true;
    });
  }

  private static TabletInfo tabletHolding(TableDescription table, String key) {
    return table.tablets().stream().filter(t -> t.contains(Bytes.utf8(key))).findFirst().orElseThrow();
  }

  /**
   * Runs {@code operation} (an admin call) in the background and kills {@code victim} with kill -9
   * {@code delayMs} later; prints how the operation ended (it may fail: the end state is checked).
   */
  private static void killDuring(String what, Supplier<String> operation, ChildProcess victim, String victimName,
      int delayMs) throws Exception {
    CompletableFuture<String> outcome = CompletableFuture.supplyAsync(() -> {
      try {
        return operation.get();
      } catch (LogBaseException e) {
        return "failed: " + e.getMessage();
      }
    });
    TimeUnit.MILLISECONDS.sleep(delayMs); // the random moment of the kill: not synchronisation
    victim.kill9();
    System.out.printf("ELASTIC: %s, killed %s after %d ms: %s%n", what, victimName, delayMs,
        outcome.get(2, TimeUnit.MINUTES));
  }

  private static String splitOutcome(LogBaseClient admin, int tabletId) {
    TabletSplit x = admin.admin().splitTablet(TABLE, tabletId, null);
    return "split into " + x.leftId() + " and " + x.rightId();
  }

  /** Starts moving {@code tablet} from {@code from} to {@code to}, kills {@code victim} after {@code delayMs}. */
  private static void killDuringMove(LocalCluster cluster, LogBaseClient admin, int tablet, String from, String to,
      String victim, int delayMs) throws Exception {
    killDuring("moving tablet " + tablet + " from " + from + " to " + to, () -> {
      TabletMove m = admin.admin().moveTablet(TABLE, tablet, to);
      return "moved in " + m.unavailableMs() + " ms";
    }, cluster.tabletServers.get(victim), victim, delayMs);
    Await.until(Duration.ofSeconds(90), "every tablet on a live server other than " + victim, () -> {
      for (TabletInfo t : admin.admin().describeTable(TABLE).tablets()) {
        if (t.serverId().equals(victim) || !t.hasServer()) {
          return false;
        }
        try {
          admin.table(TABLE).get(Bytes.utf8(keyIn(t)));
        } catch (LogBaseException e) {
          return false;
        }
      }
      return true;
    });
  }

  /**
   * Asks every listed server directly for a row of the tablet: exactly one may answer (the others
   * say they do not serve it).
   */
  /**
   * Exactly one of {@code servers} answers a get of the tablet. A server that does not answer may be
   * one that does not serve it, or the owner refusing for a moment (its lease checked under load):
   * while none answers, asked again for up to 30 s; two answering fails at once. The refusals are
   * in the failure message.
   */
  private static void assertServedByExactlyOne(LocalCluster cluster, List<String> servers, TabletInfo tablet) {
    Probe[] last = {null};
    try {
      // Two answering ends the wait at once, and fails below.
      Await.until(Duration.ofSeconds(30), "a server answers for tablet " + tablet.tabletId(), () -> {
        last[0] = ask(cluster, servers, tablet);
        return !last[0].serving().isEmpty();
      });
    } catch (AssertionError e) {
      e.addSuppressed(new AssertionError("last refusals: " + last[0].refusals()));
      throw e;
    }
    assertEquals(1, last[0].serving().size(),
        "servers serving tablet " + tablet.tabletId() + ": " + last[0].serving() + "; refusals " + last[0].refusals());
  }

  /** Which servers answered a get of a tablet's key, and how the others refused. */
  private record Probe(List<String> serving, List<String> refusals) {}

  /** Asks each server once for a key of the tablet. */
  private static Probe ask(LocalCluster cluster, List<String> servers, TabletInfo tablet) {
    List<String> serving = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    for (String s : servers) {
      ManagedChannel ch = NettyChannelBuilder.forTarget(cluster.tabletServerAddress(s)).usePlaintext().build();
      try {
        TabletServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS).get(GetRequest.newBuilder()
            .setTablet(TabletRef.newBuilder().setTable(TABLE).setTabletId(tablet.tabletId()))
            .setKey(ByteString.copyFromUtf8(keyIn(tablet))).build());
        serving.add(s);
      } catch (StatusRuntimeException e) {
        refusals.add(s + ": " + e.getStatus());
      } finally {
        ch.shutdownNow();
      }
    }
    return new Probe(serving, refusals);
  }

  private static String serverOf(LogBaseClient admin, int tabletId) {
    return admin.admin().describeTable(TABLE).tablets().stream().filter(t -> t.tabletId() == tabletId)
        .findFirst().orElseThrow().serverId();
  }

  private static int tabletsOf(LogBaseClient admin, String server) {
    return admin.admin().clusterStatus().servers().stream().filter(s -> s.serverId().equals(server))
        .mapToInt(s -> s.tablets().size()).findFirst().orElse(0);
  }

  private static String keyIn(TabletInfo t) {
    return FailoverTest.keyIn(t, "served");
  }

  private static TableDescription createTable(LogBaseClient admin) {
    return FailoverTest.createTable(admin);
  }
}
