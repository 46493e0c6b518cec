package org.logbase.chaos.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.logbase.chaos.cluster.ChaosCluster;
import org.logbase.chaos.cluster.CpuLimiter;
import org.logbase.chaos.cluster.Daemon;
import org.logbase.chaos.cluster.Link;
import org.logbase.chaos.workload.RunClock;
import org.logbase.client.Admin;
import org.logbase.client.LogBaseClient;
import org.logbase.client.PolicyChange;
import org.logbase.client.ServerInfo;
import org.logbase.client.TabletInfo;
import org.logbase.client.TabletMove;
import org.logbase.client.TabletSplit;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.logbase.common.Threads;

/**
 * Injects faults at random moments: each of its threads waits a random time (exponential, mean
 * {@code meanInterval}), picks a fault and a victim no other thread is hurting, injects the fault
 * and heals its victim. With two or more threads faults overlap: a server starved while another is
 * killed, ZooKeeper restarted during a recovery. Every fault is logged with its time and counted.
 */
public final class Nemesis {
  private static final Logger LOG = LoggerFactory.getLogger(Nemesis.class);

  /** Client processes the nemesis may kill; it starts a replacement for each one it kills. */
  public interface Clients {
    List<Daemon> running();

    void replace(Daemon killed) throws Exception;
  }

  private final ChaosCluster cluster;
  private final Clients clients;
  private final Supplier<LogBaseClient> admin;
  private final List<Fault> faults;
  private final Queue<Fault> first;
  private final Duration meanInterval;
  private final Duration sessionTimeout;
  private final CpuLimiter cpu;
  private final RunClock clock;
  private final Random rnd;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Set<Daemon> busy = new HashSet<>();
  private final EnumMap<Fault, Integer> counts = new EnumMap<>(Fault.class);
  private final List<String> events = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> failures = new ArrayList<>();
  private int serverKills;

  /**
   * @param first faults injected once each, in this order, before the random ones (taken by
   *     whichever nemesis thread comes first)
   */
  public Nemesis(ChaosCluster cluster, Clients clients, Supplier<LogBaseClient> admin, Set<Fault> faults,
      List<Fault> first, Duration meanInterval, Duration sessionTimeout, CpuLimiter cpu, RunClock clock, long seed) {
    this.cluster = cluster;
    this.clients = clients;
    this.admin = admin;
    this.faults = List.copyOf(faults);
    this.first = new ConcurrentLinkedQueue<>(first);
    this.meanInterval = meanInterval;
    this.sessionTimeout = sessionTimeout;
    this.cpu = cpu;
    this.clock = clock;
    this.rnd = new Random(seed);
  }

  /** Starts {@code n} nemesis threads. */
  public void start(int n) {
    if (faults.isEmpty()) {
      return;
    }
    Thread sup = Threads.newDaemon("nemesis-supervisor", this::supervise);
    threads.add(sup);
    sup.start();
    for (int i = 0; i < n; i++) {
      Thread t = Threads.newDaemon("nemesis-" + i, this::loop);
      threads.add(t);
      t.start();
    }
  }

  private void loop() {
    try {
      while (running.get()) {
        long waitMs = (long) (-Math.log(1 - random().nextDouble()) * meanInterval.toMillis());
        if (sleepUnlessStopped(waitMs)) {
          return;
        }
        Fault next = first.poll();
        if (next == null) {
          inject(pick(random()));
        } else if (!injected(next)) {
          first.add(next); // no free victim (another fault had it): later, by whichever thread comes
        }
      }
    } catch (Throwable e) {
      LOG.error("nemesis thread failed", e);
      synchronized (failures) {
        failures.add(e);
      }
    }
  }

  /** A fault chosen by weight. */
  private Fault pick(Random r) {
    double total = faults.stream().mapToDouble(Fault::weight).sum();
    double x = r.nextDouble() * total;
    for (Fault f : faults) {
      x -= f.weight();
      if (x < 0) {
        return f;
      }
    }
    return faults.get(faults.size() - 1);
  }

  /**
   * What an operator's process supervisor does: a process that died by itself (a tablet server
   * whose ZooKeeper session expired while it was paused or starved exits) and that no fault is
   * working on is started again.
   */
  private void supervise() {
    try {
      while (!sleepUnlessStopped(1000)) {
        for (Daemon d : cluster.all()) {
          boolean mine;
          synchronized (busy) {
            mine = !busy.contains(d) && !d.isAlive() && d.starts() > 0;
            if (mine) {
              busy.add(d);
            }
          }
          if (mine) {
            try {
              event("supervisor", d + " exited by itself (" + d.exitValue() + "): restarting it");
              cluster.restart(d);
              event("supervisor", d + " back");
            } finally {
              synchronized (busy) {
                busy.remove(d);
              }
            }
          }
        }
      }
    } catch (Throwable e) {
      LOG.error("supervisor failed", e);
      synchronized (failures) {
        failures.add(e);
      }
    }
  }

  /** Injects {@code f}; false if it found nothing to act on (every candidate busy with another fault). */
  private boolean injected(Fault f) throws Exception {
    int before = counts().getOrDefault(f, 0);
    inject(f);
    return counts().getOrDefault(f, 0) > before;
  }

  private void inject(Fault f) throws Exception {
    switch (f) {
      case KILL_TABLETSERVER -> withVictim(f, cluster.tabletServers(), ts -> {
        ts.kill9();
        countKill(f, ts, "killed");
        pause(random().nextInt(3000));
        cluster.restart(ts);
        event(f, ts + " back");
      });
      case KILL_IN_RECOVERY -> withVictim(f, cluster.tabletServers(), ts -> {
        ts.kill9();
        countKill(f, ts, "killed");
        ts.start();
        // Killed again while it starts: JVM start, ZooKeeper, then the replay of each tablet it opens.
        pause(1000 + random().nextInt(3000));
        ts.kill9();
        countKill(f, ts, "killed again while starting");
        cluster.restart(ts);
        event(f, ts + " back");
      });
      case SLOW_RECOVERY -> withVictim(f, cluster.tabletServers(), ts -> {
        ts.kill9();
        countKill(f, ts, "killed");
        ts.start();
        long pid = ts.pid();
        cpu.limit(pid, 10);
        long ms = 5000 + random().nextInt(10_000);
        try {
          event(f, ts + " restarted with 10% of a core until " + ms + " ms after it is ready");
          cluster.awaitReady(ts);
          pause(ms);
        } finally {
          cpu.unlimit(pid);
        }
        event(f, ts + " back at full speed");
        healIfDead(f, ts);
      });
      case KILL_MASTER -> withVictim(f, activeMaster(), m -> {
        m.kill9();
        countKill(f, m, "killed (active master)");
        pause(random().nextInt(3000));
        cluster.restart(m);
        event(f, m + " back");
      });
      case PAUSE_TABLETSERVER -> withVictim(f, cluster.tabletServers(), ts -> {
        long ms = 1000 + random().nextInt((int) sessionTimeout.toMillis() + 4000);
        ts.pause();
        event(f, ts + " stopped for " + ms + " ms");
        pause(ms);
        ts.resume();
        healIfDead(f, ts);
      });
      case PAUSE_MASTER -> withVictim(f, activeMaster(), m -> {
        long ms = sessionTimeout.toMillis() + 2000 + random().nextInt(3000);
        m.pause();
        event(f, m + " (active master) stopped for " + ms + " ms");
        pause(ms);
        m.resume();
        healIfDead(f, m);
      });
      case PARTITION_TABLETSERVER -> withVictim(f, cluster.tabletServers(), ts -> {
        long ms = 1000 + random().nextInt((int) sessionTimeout.toMillis() + 4000);
        partition(f, ts, ms, ts.toString());
      });
      case PARTITION_MASTER -> withVictim(f, activeMaster(), m -> {
        long ms = sessionTimeout.toMillis() + 2000 + random().nextInt(3000);
        partition(f, m, ms, m + " (active master)");
      });
      case ISOLATE_TABLETSERVER -> withVictim(f, cluster.tabletServers(), ts -> {
        long ms = 1000 + random().nextInt(14_000);
        Link link = cluster.rpcLink(ts);
        link.cut();
        event(f, ts + " cut off from clients, masters and other servers for " + ms + " ms (it keeps ZooKeeper)");
        try {
          pause(ms);
        } finally {
          link.restore();
        }
        event(f, ts + " reachable again");
        healIfDead(f, ts);
      });
      case STARVE_TABLETSERVER -> withVictim(f, cluster.tabletServers(), ts -> {
        long ms = 5000 + random().nextInt(10_000);
        long pid = ts.pid();
        cpu.limit(pid, 5);
        event(f, ts + " limited to 5% of a core for " + ms + " ms");
        try {
          pause(ms);
        } finally {
          cpu.unlimit(pid);
        }
        healIfDead(f, ts);
      });
      case KILL_ZOOKEEPER -> withVictim(f, List.of(cluster.zookeeper()), zk -> {
        zk.kill9();
        event(f, "zookeeper killed");
        pause(1000 + random().nextInt(4000));
        cluster.restart(zk);
        event(f, "zookeeper back");
      });
      case KILL_CLIENT -> withVictim(f, clients.running(), c -> {
        c.kill9();
        event(f, c + " killed");
        clients.replace(c);
      });
      case ALTER_TABLE -> alterTable(f);
      case MOVE_TABLET -> moveOrSplit(f, true);
      case SPLIT_TABLET -> moveOrSplit(f, false);
      case KILL_DATANODE -> killAndRestart(f, cluster.dataNodes(), 5000);
      case PAUSE_DATANODE -> withVictim(f, cluster.dataNodes(), dn -> {
        long ms = 1000 + random().nextInt(19_000);
        dn.pause();
        event(f, "datanode stopped for " + ms + " ms");
        pause(ms);
        dn.resume();
        event(f, "datanode resumed");
        healIfDead(f, dn);
      });
      case KILL_NAMENODE -> killAndRestart(f, cluster.nameNodes(), 3000);
      default -> throw new IllegalStateException("unknown fault " + f);
    }
  }

  /**
   * Alters a random column group of a random table to a random compression. Its victim is the
   * schema, not a process: it overlaps any other fault. An alter that fails (no master, a server
   * not answering in time) is an event, not a finding: what the checkers read afterwards is.
   */
  private void alterTable(Fault f) {
    Random r = random();
    String what = "an alter";
    try {
      Admin a = admin.get().admin();
      String table = randomTable(a, r);
      if (table == null) {
        return;
      }
      List<ColumnGroup> groups = a.describeTable(table).schema().columnGroups();
      ColumnGroup g = groups.get(r.nextInt(groups.size()));
      List<BlockCompression> others = Arrays.stream(BlockCompression.values())
          .filter(c -> c != g.policy().compression()).toList();
      BlockCompression to = others.get(r.nextInt(others.size())); // a change, so the fingerprint changes too
      what = "column group " + g.name() + " of " + table + ": compression " + g.policy().compression() + " -> " + to;
      synchronized (busy) {
        counts.merge(f, 1, Integer::sum);
      }
      event(f, what);
      a.alterColumnGroup(table, g.name(), PolicyChange.builder().compression(to).build());
      event(f, what + " done");
    } catch (RuntimeException e) {
      event(f, what + " failed: " + e);
    }
  }

  /**
   * Moves a random tablet of a random table to another live tablet server, or splits it about its
   * middle. Like an alter, its victim is the tablet, not a process: it overlaps any other fault. A
   * move or split that fails (no master, a server killed meanwhile, too few rows to split) is an
   * event, not a finding: what the checkers read afterwards is.
   */
  private void moveOrSplit(Fault f, boolean move) {
    Random r = random();
    String what = move ? "a move" : "a split";
    try {
      Admin a = admin.get().admin();
      String table = randomTable(a, r);
      if (table == null) {
        return;
      }
      List<TabletInfo> tablets = a.describeTable(table).tablets();
      if (!move && tablets.size() >= Fault.MAX_SPLIT_TABLETS) {
        return;
      }
      TabletInfo t = tablets.get(r.nextInt(tablets.size()));
      String target = null;
      if (move) {
        List<String> others = a.clusterStatus().servers().stream()
            .filter(s -> s.live() && !s.draining() && !s.serverId().equals(t.serverId()))
            .map(ServerInfo::serverId).toList();
        if (others.isEmpty()) {
          return;
        }
        target = others.get(r.nextInt(others.size()));
        what = "tablet " + t.tabletId() + " of " + table + ": move from " + t.serverId() + " to " + target;
      } else {
        what = "tablet " + t.tabletId() + " of " + table + " on " + t.serverId() + ": split";
      }
      synchronized (busy) {
        counts.merge(f, 1, Integer::sum);
      }
      event(f, what);
      if (move) {
        TabletMove m = a.moveTablet(table, t.tabletId(), target);
        event(f, what + " done (" + m.unavailableMs() + " ms unavailable)");
      } else {
        TabletSplit s = a.splitTablet(table, t.tabletId(), null);
        event(f, what + " done: tablets " + s.leftId() + " and " + s.rightId());
      }
    } catch (RuntimeException e) {
      event(f, what + " failed: " + e);
    }
  }

  /** A random table of the cluster's, or null if it has none. */
  private static String randomTable(Admin a, Random r) {
    List<String> tables = a.listTables();
    return tables.isEmpty() ? null : tables.get(r.nextInt(tables.size()));
  }

  private List<Daemon> activeMaster() {
    try {
      Daemon m = cluster.activeMaster(admin.get());
      return m == null ? List.of() : List.of(m);
    } catch (RuntimeException e) {
      LOG.info("nemesis: no active master found ({}); skipping", e.toString());
      return List.of();
    }
  }

  /** kill -9 one of {@code candidates}, restarts it 0 to {@code maxDownMs} later. */
  private void killAndRestart(Fault f, List<Daemon> candidates, int maxDownMs) throws Exception {
    withVictim(f, candidates, d -> {
      d.kill9();
      event(f, d + " killed");
      pause(random().nextInt(maxDownMs));
      cluster.restart(d);
      event(f, d + " back");
    });
  }

  /** Cuts {@code d} off from ZooKeeper for {@code ms}, then restores its link. */
  private void partition(Fault f, Daemon d, long ms, String who) throws Exception {
    Link link = cluster.zooKeeperLink(d);
    link.cut();
    event(f, who + " cut off from ZooKeeper for " + ms + " ms (all else still reaches it)");
    try {
      pause(ms);
    } finally {
      link.restore();
    }
    event(f, who + " reaches ZooKeeper again");
    healIfDead(f, d);
  }

  /** A process that died of the fault (its session expired) is started again. */
  private void healIfDead(Fault f, Daemon d) throws Exception {
    if (!d.isAlive()) {
      event(f, d + " exited (" + d.exitValue() + "): restarting it");
      cluster.restart(d);
      event(f, d + " back");
    }
  }

  private interface Action {
    void on(Daemon victim) throws Exception;
  }

  private void withVictim(Fault f, List<Daemon> candidates, Action action) throws Exception {
    Daemon victim;
    synchronized (busy) {
      List<Daemon> free = candidates.stream().filter(d -> !busy.contains(d) && d.isAlive()).toList();
      if (free.isEmpty()) {
        return;
      }
      victim = free.get(random().nextInt(free.size()));
      busy.add(victim);
      counts.merge(f, 1, Integer::sum);
    }
    try {
      action.on(victim);
    } finally {
      synchronized (busy) {
        busy.remove(victim);
      }
    }
  }

  private void countKill(Fault f, Daemon d, String what) {
    synchronized (busy) {
      serverKills++;
    }
    event(f, d + " " + what);
  }

  private void event(Fault f, String what) {
    event(f.label(), what);
  }

  private void event(String who, String what) {
    String line = String.format("%8.1f s  %-20s %s", clock.now() / 1e9, who, what);
    LOG.info("nemesis: {}", line);
    synchronized (events) {
      events.add(line);
    }
  }

  private Random random() {
    synchronized (rnd) {
      return new Random(rnd.nextLong());
    }
  }

  /** Sleeps; true if the nemesis was stopped meanwhile (a fault in progress still finishes). */
  private boolean sleepUnlessStopped(long ms) throws InterruptedException {
    long end = System.nanoTime() + ms * 1_000_000;
    while (running.get()) {
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return false;
      }
      Thread.sleep(Math.min(left, 200));
    }
    return true;
  }

  private static void pause(long ms) throws InterruptedException {
    Thread.sleep(ms); // the fault's own duration, not a wait for something to happen
  }

  /** Stops injecting; waits for the faults in progress to finish and heal their victims. */
  public void stop() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(300_000);
    }
  }

  public Map<Fault, Integer> counts() {
    synchronized (busy) {
      return new EnumMap<>(counts);
    }
  }

  /** Tablet server and master kills. */
  public int serverKills() {
    synchronized (busy) {
      return serverKills;
    }
  }

  public List<String> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  public List<Throwable> failures() {
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }
}
