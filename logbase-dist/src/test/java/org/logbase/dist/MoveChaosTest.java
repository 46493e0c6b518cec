package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.TabletMove;
import org.logbase.client.TabletSplit;
import org.logbase.common.LogBaseException;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.tabletserver.server.TabletServer;
import org.logbase.testing.Await;
import org.logbase.testing.ChildProcess;

/**
 * Attack on issue #11 (independent tester): a stream of operator moves (and some splits) under a
 * recorded write load while a nemesis kills (-9) or pauses (SIGSTOP past the session timeout) the
 * active master, or kills the source/target tablet server of moves at random moments. Checks:
 * every acknowledged write reads back, every tablet is served by exactly one server and every tablet
 * id no longer in the metadata by none, no intent is left pending, and no move call failed with an
 * "already on" error (a retried request moving twice) or reported a target other than the one asked.
 *
 * <p>A soak, not part of the suite: it runs only when {@code -Dattack.seconds} is given
 * ({@code bin/chaos-moves.sh}); -Dattack.seed repeats a run's random choices.
 */
@EnabledIfSystemProperty(named = "attack.seconds", matches = "\\d+")
class MoveChaosTest {
  static final String TABLE = FailoverTest.TABLE;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir;

  final List<String> events = new CopyOnWriteArrayList<>();
  final List<String> suspicious = new CopyOnWriteArrayList<>();
  final Set<Integer> everTablet = ConcurrentHashMap.newKeySet();
  final AtomicInteger moveOk = new AtomicInteger();
  final AtomicInteger moveFailed = new AtomicInteger();
  final AtomicInteger splitOk = new AtomicInteger();
  final AtomicInteger splitFailed = new AtomicInteger();
  final Map<String, Integer> failureKinds = new ConcurrentHashMap<>();

  void log(String s) {
    String line = String.format("ATTACK %tT.%<tL %s", System.currentTimeMillis(), s);
    System.out.println(line);
    events.add(line);
  }

  @Test
  void movesAndSplitsWhileTheActiveMasterIsKilledOrPaused() throws Exception {
    long seed = Long.getLong("attack.seed", System.nanoTime());
    int seconds = Integer.getInteger("attack.seconds", 240);
    Random random = new Random(seed);
    log("seed " + seed + ", " + seconds + " s");
    try (LocalCluster cluster = new LocalCluster(dir, 2, 3, true, Map.of("master.balancer.interval.ms", "1000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      FailoverTest.createTable(admin);
      boolean balancer = Boolean.getBoolean("attack.balancer");
      admin.admin().setBalancer(balancer);
      strictLocation = !balancer; // with the balancer on, it may move a tablet right after our move
      log("balancer " + (balancer ? "on" : "off"));
      load.start();
      load.awaitAcked(500);
      AtomicBoolean running = new AtomicBoolean(true);
      Thread mover = moverThread(cluster, running, new Random(random.nextLong()), List.of("ts1", "ts2", "ts3"), 0.1);
      mover.start();
      int masterSeq = 3;
      int kills = 0;
      int pauses = 0;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < end) {
        TimeUnit.MILLISECONDS.sleep(2000 + random.nextInt(6000));
        String active;
        try {
          active = cluster.masterAt(admin.admin().clusterStatus().activeMaster());
        } catch (Throwable e) {
          log("no active master yet: " + e.getMessage());
          continue;
        }
        ChildProcess victim = cluster.masters.get(active);
        if (random.nextBoolean()) {
          victim.kill9();
          kills++;
          log("kill -9 active master " + active);
        } else {
          signal(victim, "STOP");
          pauses++;
          int ms = 6500 + random.nextInt(4000);
          log("SIGSTOP active master " + active + " for " + ms + " ms");
          TimeUnit.MILLISECONDS.sleep(ms);
          signal(victim, "CONT");
          log("SIGCONT " + active);
          int rc = victim.waitFor(Duration.ofSeconds(60));
          log(active + " exited with " + rc + " after SIGCONT");
        }
        cluster.masters.remove(active);
        String name = "master" + masterSeq++;
        cluster.startMaster(name).await(l -> l.startsWith("MASTER READY"), LocalCluster.START);
        log("started " + name);
      }
      running.set(false);
      mover.join(180_000);
      log("nemesis done: " + kills + " kills, " + pauses + " pauses of the active master; moves ok " + moveOk
          + ", failed " + moveFailed + "; splits ok " + splitOk + ", failed " + splitFailed + "; failures by kind "
          + new TreeMap<>(failureKinds));
      finalChecks(cluster, admin, load, List.of("ts1", "ts2", "ts3"));
    }
  }

  @Test
  void movesWhoseSourceOrTargetIsKilledAtRandomMoments() throws Exception {
    long seed = Long.getLong("attack.seed", System.nanoTime());
    int seconds = Integer.getInteger("attack.seconds", 240);
    Random random = new Random(seed);
    log("seed " + seed + ", " + seconds + " s");
    List<String> servers = List.of("ts1", "ts2", "ts3", "ts4");
    try (LocalCluster cluster = new LocalCluster(dir, 1, 4, true, Map.of("master.balancer.interval.ms", "1000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      FailoverTest.createTable(admin);
      admin.admin().setBalancer(false);
      load.start();
      load.awaitAcked(500);
      int seq = 2;
      int kills = 0;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < end) {
        // Wait until all four servers are live and every tablet is assigned to a live server.
        Await.until(Duration.ofSeconds(120), "every tablet on a live server", () -> {
          try {
            return admin.admin().describeTable(TABLE).tablets().stream().allMatch(TabletInfo::hasServer);
          } catch (LogBaseException e) {
            return false;
          }
        });
        TableDescription table = admin.admin().describeTable(TABLE);
        table.tablets().forEach(t -> everTablet.add(t.tabletId()));
        TabletInfo t = table.tablets().get(random.nextInt(table.tablets().size()));
        List<String> targets = new ArrayList<>(servers);
        targets.remove(t.serverId());
        String to = targets.get(random.nextInt(targets.size()));
        String victim = random.nextBoolean() ? t.serverId() : to;
        int delay = random.nextInt(600);
        AtomicBoolean done = new AtomicBoolean();
        Thread call = new Thread(() -> {
          try {
            TabletMove m = admin.admin().moveTablet(TABLE, t.tabletId(), to);
            log("move " + t.tabletId() + " " + t.serverId() + " -> " + to + " ok: " + m.fromServer() + " -> "
                + m.toServer() + " " + m.unavailableMs() + " ms");
          } catch (LogBaseException e) {
            log("move " + t.tabletId() + " " + t.serverId() + " -> " + to + " failed: " + e.getMessage());
            classify(e.getMessage(), t.tabletId(), to);
          }
          done.set(true);
        });
        call.start();
        TimeUnit.MILLISECONDS.sleep(delay);
        cluster.tabletServers.get(victim).kill9();
        kills++;
        log("kill -9 " + victim + " " + delay + " ms into the move of " + t.tabletId() + " " + t.serverId() + " -> "
            + to + (done.get() ? " (the call had returned already)" : ""));
        call.join(180_000);
        // Restart the victim under the same id once its tablets were taken over (its session expired).
        Await.until(Duration.ofSeconds(120), "tablets moved off " + victim, () -> {
          try {
            return admin.admin().describeTable(TABLE).tablets().stream()
                .noneMatch(x -> x.serverId().equals(victim));
          } catch (LogBaseException e) {
            return false;
          }
        });
        ChildProcess p = cluster.start(TabletServer.class, victim + "-" + seq++, "--id", victim, "--config",
            cluster.config.toString(), "--port", "0");
        cluster.tabletServers.put(victim, p);
        p.await(l -> l.startsWith("TABLETSERVER READY"), LocalCluster.START);
        log("restarted " + victim);
        // Give the restarted server a tablet back, so later moves have sources everywhere.
        try {
          TableDescription now = admin.admin().describeTable(TABLE);
          TabletInfo back = now.tablets().get(random.nextInt(now.tablets().size()));
          admin.admin().moveTablet(TABLE, back.tabletId(), victim);
          moveOk.incrementAndGet();
        } catch (LogBaseException e) {
          log("move back to " + victim + " failed: " + e.getMessage());
        }
      }
      log("kills: " + kills);
      finalChecks(cluster, admin, load, servers);
    }
  }

  @Test
  void movesAndSplitsWhileOneServerIsStarvedOfCpu() throws Exception {
    long seed = Long.getLong("attack.seed", System.nanoTime());
    int seconds = Integer.getInteger("attack.seconds", 240);
    int percent = Integer.getInteger("attack.cpu.percent", 5);
    Random random = new Random(seed);
    log("seed " + seed + ", " + seconds + " s, starving at " + percent + "% of a core");
    List<String> servers = List.of("ts1", "ts2", "ts3");
    Path cpu = Path.of("/sys/fs/cgroup/cpu");
    Path group = cpu.resolve("logbase-attack-" + ProcessHandle.current().pid());
    Files.createDirectories(group);
    Files.writeString(group.resolve("cpu.cfs_period_us"), "100000");
    Files.writeString(group.resolve("cpu.cfs_quota_us"), Integer.toString(1000 * percent));
    strictLocation = false;
    try (LocalCluster cluster = new LocalCluster(dir, 2, 3, true, Map.of("master.balancer.interval.ms", "1000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        FailoverTest.Load load = new FailoverTest.Load(cluster)) {
      FailoverTest.createTable(admin);
      admin.admin().setBalancer(false);
      load.start();
      load.awaitAcked(500);
      AtomicBoolean running = new AtomicBoolean(true);
      Thread mover = moverThread(cluster, running, new Random(random.nextLong()), servers, 0.2);
      mover.start();
      int starvations = 0;
      int restarts = 0;
      int seq = 2;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < end) {
        TimeUnit.MILLISECONDS.sleep(3000 + random.nextInt(5000));
        String victim = servers.get(random.nextInt(servers.size()));
        ChildProcess p = cluster.tabletServers.get(victim);
        int minMs = Integer.getInteger("attack.starve.min.ms", 4000);
        int ms = minMs + random.nextInt(Integer.getInteger("attack.starve.max.ms", 16000) - minMs);
        Files.writeString(group.resolve("cgroup.procs"), Long.toString(p.pid()));
        starvations++;
        log("starving " + victim + " (pid " + p.pid() + ") at " + percent + "% for " + ms + " ms");
        TimeUnit.MILLISECONDS.sleep(ms);
        release(cpu, group);
        log("released " + victim + (p.isAlive() ? "" : " (it had exited)"));
        TimeUnit.MILLISECONDS.sleep(1000);
        if (!p.isAlive()) {
          ChildProcess q = cluster.start(TabletServer.class, victim + "-" + seq++, "--id", victim, "--config",
              cluster.config.toString(), "--port", "0");
          cluster.tabletServers.put(victim, q);
          q.await(l -> l.startsWith("TABLETSERVER READY"), LocalCluster.START);
          restarts++;
          log("restarted " + victim);
        }
      }
      running.set(false);
      mover.join(180_000);
      log("nemesis done: " + starvations + " starvations, " + restarts + " restarts; moves ok " + moveOk
          + ", failed " + moveFailed + "; splits ok " + splitOk + ", failed " + splitFailed + "; failures by kind "
          + new TreeMap<>(failureKinds));
      finalChecks(cluster, admin, load, servers);
    } finally {
      release(cpu, group);
      Files.deleteIfExists(group);
    }
  }

  private static void release(Path root, Path group) throws Exception {
    for (String file : List.of("cgroup.procs", "tasks")) {
      for (String id : Files.readAllLines(group.resolve(file))) {
        try {
          Files.writeString(root.resolve(file), id.trim());
        } catch (java.io.IOException gone) {
          // exited meanwhile
        }
      }
    }
  }

  volatile boolean strictLocation = true;

  private Thread moverThread(LocalCluster cluster, AtomicBoolean running, Random random, List<String> servers,
      double splitChance) {
    return new Thread(() -> {
      try (LogBaseClient client = LogBaseClient.connect(cluster.zkConnect())) {
        while (running.get()) {
          TableDescription table;
          try {
            table = client.admin().describeTable(TABLE);
          } catch (LogBaseException e) {
            continue;
          }
          table.tablets().forEach(t -> everTablet.add(t.tabletId()));
          TabletInfo t = table.tablets().get(random.nextInt(table.tablets().size()));
          if (random.nextDouble() < splitChance && table.tablets().size() < 20) {
            try {
              TabletSplit s = client.admin().splitTablet(TABLE, t.tabletId(), null);
              splitOk.incrementAndGet();
              everTablet.add(s.leftId());
              everTablet.add(s.rightId());
              log("split " + t.tabletId() + " into " + s.leftId() + "+" + s.rightId());
            } catch (LogBaseException e) {
              splitFailed.incrementAndGet();
              log("split " + t.tabletId() + " failed: " + e.getMessage());
              failureKinds.merge("split: " + kind(e.getMessage()), 1, Integer::sum);
            }
            continue;
          }
          List<String> targets = new ArrayList<>(servers);
          targets.remove(t.serverId());
          String to = targets.get(random.nextInt(targets.size()));
          try {
            TabletMove m = client.admin().moveTablet(TABLE, t.tabletId(), to);
            moveOk.incrementAndGet();
            if (!m.toServer().equals(to)) {
              suspicious.add("move of " + t.tabletId() + " to " + to + " answered " + m);
            }
            // Nothing else moves tablets (balancer off, no tablet server dies): it must be there.
            TabletInfo now = client.admin().describeTable(TABLE).tablets().stream()
                .filter(x -> x.tabletId() == t.tabletId()).findFirst().orElse(null);
            if (strictLocation && (now == null || !now.serverId().equals(to))) {
              suspicious.add("after move of " + t.tabletId() + " to " + to + " it is " + now);
            }
            log("move " + t.tabletId() + " " + t.serverId() + " -> " + to + " ok, " + m.unavailableMs() + " ms");
          } catch (LogBaseException e) {
            moveFailed.incrementAndGet();
            log("move " + t.tabletId() + " " + t.serverId() + " -> " + to + " failed: " + e.getMessage());
            classify(e.getMessage(), t.tabletId(), to);
          }
        }
      } catch (Throwable e) {
        suspicious.add("mover died: " + e);
      }
    }, "attack-mover");
  }

  private void classify(String message, int tablet, String to) {
    failureKinds.merge("move: " + kind(message), 1, Integer::sum);
    if (message.contains("already")) {
      suspicious.add("move of " + tablet + " to " + to + " failed with 'already': " + message);
    }
  }

  private static String kind(String message) {
    String m = message == null ? "null" : message;
    String k = m.replaceAll("[0-9]+", "N").replaceAll("'[^']*'", "'X'");
    return k.substring(0, Math.min(90, k.length()));
  }

  private void finalChecks(LocalCluster cluster, LogBaseClient admin, FailoverTest.Load load, List<String> servers)
      throws Exception {
    // No intent left pending for long (the balancer runs every second, on or off).
    long t0 = System.nanoTime();
    try (CuratorFramework zk = ClusterCheck.client(cluster.zkConnect())) {
      String[] last = {""};
      try {
        Await.until(Duration.ofSeconds(60), "no move or split intent left in /logbase/tables/kv", () -> {
          try {
            TableMeta meta = TableMeta.parseFrom(zk.getData().forPath("/logbase/tables/" + TABLE));
            List<String> pending = new ArrayList<>();
            for (TabletLocation t : meta.getTabletsList()) {
              if (t.hasMove() || t.hasSplit()) {
                pending.add(t.getTablet().getTabletId() + " on " + t.getServerId() + " " + t.getMove() + t.getSplit());
              }
            }
            last[0] = pending.toString();
            return pending.isEmpty();
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        });
        log("no intent pending " + (System.nanoTime() - t0) / 1_000_000 + " ms after the attack");
      } catch (AssertionError e) {
        suspicious.add("intents still pending 60 s after the attack: " + last[0]);
      }
    }
    // Every tablet served by exactly one server; every tablet id no longer in the metadata by none.
    Await.until(Duration.ofSeconds(120), "every tablet served", () -> {
      try {
        for (TabletInfo t : admin.admin().describeTable(TABLE).tablets()) {
          if (!t.hasServer()) {
            return false;
          }
          admin.table(TABLE).get(org.logbase.common.Bytes.utf8(FailoverTest.keyIn(t, "served")));
        }
        return true;
      } catch (LogBaseException e) {
        return false;
      }
    });
    TableDescription table = admin.admin().describeTable(TABLE);
    Set<Integer> current = new TreeSet<>();
    for (TabletInfo t : table.tablets()) {
      current.add(t.tabletId());
      List<String> serving = servingServers(cluster, servers, t.tabletId(), FailoverTest.keyIn(t, "served"));
      if (serving.size() != 1 || !serving.get(0).equals(t.serverId())) {
        suspicious.add("tablet " + t + " served by " + serving);
      }
    }
    for (int gone : everTablet) {
      if (!current.contains(gone)) {
        List<String> serving = servingServers(cluster, servers, gone, "k0-served");
        // A key outside a retired tablet's range is refused anyway; a retired tablet must not serve.
        if (!serving.isEmpty()) {
          suspicious.add("retired tablet " + gone + " still answers on " + serving);
        }
      }
    }
    log("tablets now " + table.tablets());
    load.stopAndCheck(admin);
    log("suspicious: " + suspicious.size());
    suspicious.forEach(s -> log("SUSPICIOUS " + s));
    Files.write(dir.getParent().resolve("attack-events-" + ProcessHandle.current().pid() + ".log"), events);
    assertTrue(suspicious.isEmpty(), suspicious.toString());
  }

  private static List<String> servingServers(LocalCluster cluster, List<String> servers, int tabletId, String key) {
    List<String> serving = new ArrayList<>();
    for (String s : servers) {
      ChildProcess p = cluster.tabletServers.get(s);
      if (p == null || !p.isAlive()) {
        continue;
      }
      ManagedChannel ch = NettyChannelBuilder.forTarget(cluster.tabletServerAddress(s)).usePlaintext().build();
      try {
        TabletServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS).get(GetRequest.newBuilder()
            .setTablet(TabletRef.newBuilder().setTable(TABLE).setTabletId(tabletId))
            .setKey(ByteString.copyFromUtf8(key)).build());
        serving.add(s);
      } catch (StatusRuntimeException e) {
        String m = String.valueOf(e.getStatus().getDescription());
        if (!m.contains("does not serve tablet")) {
          serving.add(s + "?(" + e.getStatus().getCode() + ": " + m + ")");
        }
      } finally {
        ch.shutdownNow();
      }
    }
    Collections.sort(serving);
    return serving;
  }

  private static void signal(ChildProcess p, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
    assertEquals(0, kill.waitFor(), "kill -" + signal);
  }
}
