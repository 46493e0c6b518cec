package org.logbase.chaos;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.logbase.chaos.check.ListAppendChecker;
import org.logbase.chaos.check.Result;
import org.logbase.chaos.cluster.ChaosCluster;
import org.logbase.chaos.cluster.CpuLimiter;
import org.logbase.chaos.cluster.Daemon;
import org.logbase.chaos.history.HistoryFormat;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;
import org.logbase.chaos.nemesis.Fault;
import org.logbase.chaos.nemesis.Nemesis;
import org.logbase.chaos.workload.Bank;
import org.logbase.chaos.workload.BankLedger;
import org.logbase.chaos.workload.ChaosClient;
import org.logbase.chaos.workload.Counter;
import org.logbase.chaos.workload.ListAppend;
import org.logbase.chaos.workload.Recorder;
import org.logbase.chaos.workload.RunClock;
import org.logbase.chaos.workload.SlowScans;
import org.logbase.chaos.workload.Workers;
import org.logbase.chaos.workload.Writes;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.CorruptRecordException;
import org.logbase.common.LogBaseException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A fault-injection run: starts a cluster of processes, runs the workloads (list appends, bank
 * transfers with snapshot sums, single-row writes; in this JVM and in client processes) while a
 * nemesis injects faults, heals the cluster, reads everything back and checks the whole history.
 * Exit status 0: no anomaly; 1: anomalies (listed); 3: the run was too small to count (fewer kills
 * or transactions than asked for).
 */
@Command(name = "chaos", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Run LogBase under injected faults and check the history for anomalies (docs/testing.md).")
public final class Chaos implements Callable<Integer> {
  @Option(names = "--dir", description = "Run directory: cluster data, process logs, history (default: target/chaos/<time>).")
  Path dir;
  @Option(names = "--duration", defaultValue = "180", description = "Seconds of faults and load (default: ${DEFAULT-VALUE}).")
  int durationSeconds;
  @Option(names = "--faults", defaultValue = "all", description = "all, none, or a list of: kill-tabletserver, "
      + "kill-in-recovery, slow-recovery, kill-master, pause-tabletserver, pause-master, partition-tabletserver, "
      + "partition-master, isolate-tabletserver, starve-tabletserver, kill-zookeeper, kill-client, alter-table, "
      + "move-tablet, split-tablet; with --hdfs also kill-datanode, pause-datanode, kill-namenode "
      + "(default: ${DEFAULT-VALUE}).")
  String faults;
  @Option(names = "--first-faults", defaultValue = "none", description = "Faults injected once each before the "
      + "random ones, in this order (a run that must see them); each must be among --faults (default: ${DEFAULT-VALUE}).")
  String firstFaults;
  @Option(names = "--hdfs", description = "The logs on a NameNode and a DataNode of the run's own (processes the "
      + "nemesis may kill and pause), not on the local file system.")
  boolean hdfs;
  @Option(names = "--mean-interval", defaultValue = "4", description = "Mean seconds between faults per nemesis thread (default: ${DEFAULT-VALUE}).")
  double meanIntervalSeconds;
  @Option(names = "--nemesis-threads", defaultValue = "2", description = "Faults that may overlap (default: ${DEFAULT-VALUE}).")
  int nemesisThreads;
  @Option(names = "--masters", defaultValue = "2") int masters;
  @Option(names = "--tablet-servers", defaultValue = "3") int tabletServers;
  @Option(names = "--list-append-threads", defaultValue = "6") int listAppendThreads;
  @Option(names = "--transfer-threads", defaultValue = "2") int transferThreads;
  @Option(names = "--snapshot-threads", defaultValue = "1") int snapshotThreads;
  @Option(names = "--counter-threads", defaultValue = "2") int counterThreads;
  @Option(names = "--slow-scan-rows", defaultValue = "1500", description = "Rows of 4 KiB in the table scanned"
      + " slowly while it is compacted and its log collected (0: no slow scans; default: ${DEFAULT-VALUE}).")
  int slowScanRows;
  @Option(names = "--slow-scan-pause-ms", defaultValue = "150", description = "The slow scans' pause after every"
      + " 10 rows (default: ${DEFAULT-VALUE}: about 20 s a scan).")
  long slowScanPauseMs;
  @Option(names = "--write-threads", defaultValue = "1") int writeThreads;
  @Option(names = "--writes-per-second", defaultValue = "200", description = "Calls per write thread and second (default: ${DEFAULT-VALUE}).")
  int writesPerSecond;
  @Option(names = "--client-processes", defaultValue = "1", description = "Client processes the nemesis may kill (default: ${DEFAULT-VALUE}).")
  int clientProcesses;
  @Option(names = "--accounts", defaultValue = "100") int accounts;
  @Option(names = "--seed", description = "Seed of the nemesis (default: random, printed).")
  Long seed;
  @Option(names = "--setting", description = "Extra cluster setting key=value (repeatable), e.g. txn.lock.ttl.ms=2000.")
  Map<String, String> settings = new LinkedHashMap<>();
  @Option(names = "--broken", defaultValue = "", description = "Run deliberately broken tablet servers, to see the "
      + "checks fail: validation (first-committer-wins off), snapshot-reads (reads do not wait for committing "
      + "writers), or both, comma-separated (default: none, the product).")
  String broken;
  @Option(names = "--min-server-kills", defaultValue = "0", description = "Fail (status 3) with fewer tablet server and master kills.")
  int minServerKills;
  @Option(names = "--min-transactions", defaultValue = "0", description = "Fail (status 3) with fewer committed transactions.")
  long minTransactions;

  /** How long after the heal every tablet has to take a write (a log retrying a batch lands it by then). */
  private static final Duration WRITABLE_WITHIN = Duration.ofSeconds(60);
  private static final Duration WRITABLE_EACH_AT_LEAST = Duration.ofSeconds(10);

  private final PrintStream out;

  public Chaos() {
    this(System.out);
  }

  Chaos(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Chaos()).execute(args));
  }

  /** Parses command-line flags into a run (for tests). */
  public static Chaos withArgs(PrintStream out, String... args) {
    Chaos c = new Chaos(out);
    new CommandLine(c).parseArgs(args);
    return c;
  }

  @Override
  public Integer call() throws Exception {
    RunResult r = run();
    return r.valid() ? (r.bigEnough() ? 0 : 3) : 1;
  }

  /** What a run found. */
  public record RunResult(boolean valid, boolean bigEnough, List<String> problems, long committed, int serverKills,
      Map<Fault, Integer> faults) {}

  public RunResult run() throws Exception {
    long s = seed != null ? seed : new Random().nextLong();
    Set<Fault> enabled = Fault.parse(faults);
    if (!hdfs) {
      if (!faults.equals("all") && enabled.stream().anyMatch(Fault::needsHdfs)) {
        throw new IllegalArgumentException("the faults on HDFS's daemons need --hdfs: " + faults);
      }
      enabled.removeIf(Fault::needsHdfs);
    }
    List<Fault> first = Fault.parseList(firstFaults);
    if (!enabled.containsAll(first)) {
      throw new IllegalArgumentException("--first-faults " + firstFaults + " names faults not enabled by --faults "
          + faults + (hdfs ? "" : " (without --hdfs)"));
    }
    if (dir == null) {
      dir = Path.of("target/chaos/" + Instant.now().toString().replace(':', '-'));
    }
    Files.createDirectories(dir);
    RunClock clock = RunClock.startingNow();
    Map<String, String> clusterSettings = new LinkedHashMap<>();
    // Checkpoints, segment rolls, compactions and the logs' garbage collection all through the run,
    // so that faults land on them too (the defaults would compact nothing in a few minutes).
    clusterSettings.put("checkpoint.interval.ms", "8000");
    clusterSettings.put("checkpoint.updates", "5000");
    clusterSettings.put("log.segment.bytes", "256k");
    clusterSettings.put("compaction.check.interval.ms", "5000");
    clusterSettings.put("compaction.unsorted.versions", "2000");
    clusterSettings.put("compaction.interval.ms", "10000");
    clusterSettings.put("log.gc.interval.ms", "8000");
    // The bank ledger reads every account version since the load: compaction keeps them all for
    // longer than the run (the default, 10 minutes, dropped the load's of a 600 s run).
    clusterSettings.put("compaction.retention.ms", Long.toString((durationSeconds + 3600L) * 1000));
    clusterSettings.putAll(settings);
    CpuLimiter cpu = CpuLimiter.detect();
    say("chaos run in %s: %d s, faults %s, seed %d, %d masters, %d tablet servers, logs on %s%s; CPU starvation by %s",
        dir, durationSeconds, enabled.isEmpty() ? "none" : faults, s, masters, tabletServers,
        hdfs ? "HDFS (a NameNode and a DataNode)" : "the local file system",
        broken.isEmpty() ? "" : " BROKEN ON PURPOSE: " + broken, cpu.describe());

    try (ChaosCluster cluster = new ChaosCluster(dir, masters, tabletServers, clusterSettings, broken, hdfs)) {
      // Ctrl-C or kill of the runner: its processes go with it.
      Thread killer = new Thread(() -> {
        try {
          cluster.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "chaos-shutdown");
      Runtime.getRuntime().addShutdownHook(killer);
      try {
        return runOn(cluster, clock, enabled, first, cpu, s);
      } finally {
        Runtime.getRuntime().removeShutdownHook(killer);
      }
    }
  }

  private RunResult runOn(ChaosCluster cluster, RunClock clock, Set<Fault> enabled, List<Fault> first, CpuLimiter cpu,
      long s)
      throws Exception {
    List<String> problems = new ArrayList<>();
    Recorder recorder = new Recorder();
    cluster.start();
    Config clientConfig = Config.empty().with(ClusterConfig.ZK_CONNECT, cluster.zkConnect())
        .with(ClusterConfig.RPC_DEADLINE_MS, 5_000);
    Bank bank = new Bank(accounts, 1000);
    SlowScans slowScans = new SlowScans(slowScanRows);
    try (LogBaseClient admin = LogBaseClient.connect(clientConfig)) {
      ListAppend.createTable(admin);
      bank.create(admin);
      Writes.createTable(admin);
      Counter.createTable(admin);
      if (slowScanRows > 0) {
        slowScans.create(admin);
      }
    }
    ClientProcesses clients = new ClientProcesses(cluster, recorder, clock, accounts);
    for (int i = 0; i < clientProcesses; i++) {
      clients.startOne();
    }
    Workers workers = new Workers(clientConfig, recorder);
    ListAppend la = new ListAppend(clock, 100, 40);
    for (int i = 0; i < listAppendThreads; i++) {
      workers.listAppend(la, i + 1, s + i, null);
    }
    for (int i = 0; i < transferThreads; i++) {
      workers.transfers(bank, s + 100 + i, null);
    }
    for (int i = 0; i < snapshotThreads; i++) {
      workers.snapshots(bank);
    }
    for (int i = 0; i < counterThreads; i++) {
      workers.increments(i + 1);
    }
    for (int i = 0; i < writeThreads; i++) {
      workers.writes(i + 1, writesPerSecond);
    }
    if (slowScanRows > 0) {
      // A deadline longer than a scan: the servers, not the client, decide when a stream ends.
      workers.slowScans(slowScans, slowScanPauseMs, clientConfig.with(ClusterConfig.RPC_DEADLINE_MS, 120_000), s + 200);
    }

    Nemesis nemesis;
    try (LogBaseClient nemesisClient = LogBaseClient.connect(clientConfig)) {
      nemesis = new Nemesis(cluster, clients, () -> nemesisClient, enabled, first,
          Duration.ofMillis((long) (meanIntervalSeconds * 1000)), Duration.ofMillis(6000), cpu, clock, s);
      Thread.sleep(5000); // a few seconds of load before the first fault
      nemesis.start(nemesisThreads);
      Thread.sleep(durationSeconds * 1000L);
      nemesis.stop();
    }
    List<Daemon> restarted = cluster.heal();
    say("faults over; healed (%d restarted); load goes on for 10 s on the healthy cluster", restarted.size());
    Thread.sleep(10_000); // in-doubt transactions resolve, clients find their servers again
    clients.stopAll();
    workers.stop();

    try (LogBaseClient client = LogBaseClient.connect(clientConfig)) {
      awaitServing(client, problems);
      awaitNoLocks(client, problems);
      checkListAppend(la, client, recorder, problems);
      checkBank(bank, client, recorder, problems);
      checkWrites(client, recorder, problems);
      checkCounter(client, recorder, problems);
      checkSlowScans(recorder, problems);
      checkWritable(client, problems);
    }
    workers.crashes().forEach(e -> problems.add("workload thread crashed: " + e));
    nemesis.failures().forEach(e -> problems.add("nemesis failed (a process could not be brought back): " + e));

    Files.write(dir.resolve("nemesis.txt"), nemesis.events(), StandardCharsets.UTF_8);
    long committed = recorder.listAppendHistory().stream().filter(t -> t.outcome() == Outcome.OK).count()
        + recorder.transfers(Outcome.OK) + recorder.increments().size();
    report(recorder, nemesis, committed, problems);
    boolean bigEnough = nemesis.serverKills() >= minServerKills && committed >= minTransactions;
    if (!bigEnough) {
      say("TOO SMALL: %d server kills (wanted %d), %d committed transactions (wanted %d)", nemesis.serverKills(),
          minServerKills, committed, minTransactions);
    }
    return new RunResult(problems.isEmpty(), bigEnough, problems, committed, nemesis.serverKills(), nemesis.counts());
  }

  /** Waits until every table can be read in full (every tablet served again). */
  private void awaitServing(LogBaseClient client, List<String> problems) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
    for (String table : List.of(ListAppend.TABLE, Bank.TABLE, Writes.TABLE, Counter.TABLE)) {
      try {
        retrying(() -> {
          try (Transaction t = client.beginReadOnly()) {
            return t.scan(table, ScanSpec.builder().limit(1).build());
          }
        }, deadline);
      } catch (LogBaseException e) {
        problems.add("table '" + table + "' not readable 180 s after the faults ended: " + e.getMessage());
        return;
      }
    }
  }

  /**
   * Every tablet takes a write again once the faults are healed: reads alone would pass with a
   * server whose log stopped for good. Runs last (its rows are in no workload's history).
   */
  private void checkWritable(LogBaseClient client, List<String> problems) throws InterruptedException {
    long deadline = System.nanoTime() + WRITABLE_WITHIN.toNanos();
    int tablets = 0;
    List<String> tables = new ArrayList<>(List.of(ListAppend.TABLE, Bank.TABLE, Writes.TABLE, Counter.TABLE));
    if (slowScanRows > 0) {
      tables.add(SlowScans.TABLE);
    }
    for (String table : tables) {
      TableDescription d;
      try {
        d = retrying(() -> client.admin().describeTable(table), deadline);
      } catch (LogBaseException e) {
        problems.add("table '" + table + "' could not be described " + WRITABLE_WITHIN.toSeconds()
            + " s after the faults ended: " + e.getMessage());
        continue;
      }
      String column = d.schema().columnGroups().get(0).columns().get(0);
      for (TabletInfo t : d.tablets()) {
        byte[] key = t.startKey().length == 0 ? new byte[] {0} : t.startKey();
        tablets++;
        // Each tablet gets some seconds of its own even when earlier ones used up the minute.
        long until = Math.max(deadline, System.nanoTime() + WRITABLE_EACH_AT_LEAST.toNanos());
        try {
          retrying(() -> client.table(table).put(key, Map.of(column, Bytes.utf8("written after the heal"))), until);
        } catch (LogBaseException e) {
          problems.add("tablet " + t.tabletId() + " of '" + table + "' (on " + t.serverId() + ") took no write "
              + WRITABLE_WITHIN.toSeconds() + " s after the faults ended: " + e.getMessage());
        }
      }
    }
    say("writable: %d tablets each took a write after the heal", tablets);
  }

  /**
   * What {@code call} returns once it succeeds, tried every half second (the cluster gives no
   * notification to wait for) until {@code until}; past that, its last failure.
   */
  private static <T> T retrying(Supplier<T> call, long until) throws InterruptedException {
    while (true) {
      try {
        return call.get();
      } catch (LogBaseException e) {
        if (System.nanoTime() > until) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }

  /** In-doubt transactions resolve within the lock TTL; a lock that stays is a liveness bug. */
  private void awaitNoLocks(LogBaseClient client, List<String> problems) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    List<String> held;
    while (!(held = LockCheck.heldLocks(client)).isEmpty()) {
      if (System.nanoTime() > deadline) {
        problems.add(held.size() + " row locks still held 60 s after the load stopped, e.g. " + held.get(0));
        return;
      }
      Thread.sleep(500);
    }
  }

  private void checkListAppend(ListAppend la, LogBaseClient client, Recorder recorder, List<String> problems)
      throws IOException {
    List<Txn> history = new ArrayList<>(recorder.listAppendHistory());
    Set<String> keys = new HashSet<>();
    for (Txn t : history) {
      for (Mop m : t.mops()) {
        if (m.isAppend()) {
          keys.add(m.key());
        }
      }
    }
    history.add(la.finalRead(client, Long.MAX_VALUE, 0, keys));
    List<String> lines = new ArrayList<>();
    history.forEach(t -> lines.add(HistoryFormat.format(t)));
    Files.write(dir.resolve("history.txt"), lines, StandardCharsets.UTF_8);
    Result r = ListAppendChecker.check(history);
    say("list-append: %d transactions checked; %s", history.size(), r.summary().replace("\n", "\n  "));
    if (!r.valid()) {
      problems.add("list-append history has anomalies that snapshot isolation forbids (see above; history in "
          + dir.resolve("history.txt") + ")");
    }
  }

  private void checkSlowScans(Recorder recorder, List<String> problems) {
    if (slowScanRows == 0) {
      return;
    }
    List<SlowScans.Scan> scans = recorder.slowScans();
    List<SlowScans.Scan> wrong = scans.stream().filter(x -> x.wrong() != null).toList();
    List<LogBaseException> failed = recorder.failedSlowScans();
    // A read the server could not serve (damage, a file gone, any server error) is a finding; a
    // server unavailable or a deadline passed under the faults is not.
    List<LogBaseException> serverErrors = failed.stream()
        .filter(e -> e instanceof CorruptRecordException || String.valueOf(e.getMessage()).contains("internal error"))
        .toList();
    long[] millis = scans.stream().mapToLong(SlowScans.Scan::millis).sorted().toArray();
    say("slow scans: %d read whole (%d rows each, median %.1f s), %d wrong, %d failed (%d by a server error)%s;"
        + " %d rewrites, %d failed", scans.size(), slowScanRows,
        millis.length == 0 ? 0.0 : millis[millis.length / 2] / 1000.0, wrong.size(), failed.size(),
        serverErrors.size(), failed.isEmpty() ? "" : " (first: " + failed.get(0) + ")",
        recorder.slowScanRewrites(), recorder.failedSlowScanRewrites());
    if (!wrong.isEmpty()) {
      problems.add(wrong.size() + " slow scans returned wrong rows, first: " + wrong.get(0));
    }
    if (!serverErrors.isEmpty()) {
      problems.add(serverErrors.size() + " slow scans failed with a server error, first: " + serverErrors.get(0));
    }
    if (scans.isEmpty()) {
      problems.add("no slow scan read the table whole (" + failed.size() + " failed)");
    }
  }

  private void checkBank(Bank bank, LogBaseClient client, Recorder recorder, List<String> problems) {
    List<Bank.Snapshot> snaps = new ArrayList<>(recorder.snapshots());
    Bank.Snapshot last = bank.read(client, true);
    snaps.add(last);
    List<Bank.Snapshot> wrong = snaps.stream().filter(x -> !bank.isConsistent(x)).toList();
    say("bank: %d snapshots read (%d failed to read), %d wrong; final total %d of %d over %d accounts", snaps.size(),
        recorder.failedSnapshots(), wrong.size(), last.sum(), bank.total(), last.accountsSeen());
    if (!wrong.isEmpty()) {
      problems.add(wrong.size() + " bank snapshots wrong, first: " + wrong.get(0) + " (total " + bank.total() + ")");
    }
    BankLedger.Findings ledger = BankLedger.read(client, bank);
    say("bank ledger: %d account versions read; %d commits whose changes do not sum to zero%s", ledger.versionsRead(),
        ledger.unbalanced().size(), ledger.badLoads().isEmpty() ? "" : "; loads wrong: " + ledger.badLoads());
    ledger.unbalanced().stream().limit(20).forEach(c -> say("  unbalanced %s", c));
    if (!ledger.unbalanced().isEmpty() || !ledger.badLoads().isEmpty()) {
      problems.add("bank ledger: " + ledger.unbalanced().size() + " unbalanced commits, " + ledger.badLoads().size()
          + " wrong loads (see above)");
    }
  }

  private void checkWrites(LogBaseClient client, Recorder recorder, List<String> problems) {
    List<String> acked = recorder.acknowledgedWrites();
    List<String> lost = Writes.lost(client, acked);
    say("single-row writes: %d acknowledged, %d not acknowledged, %d acknowledged but lost", acked.size(),
        recorder.unacknowledgedWrites(), lost.size());
    if (!lost.isEmpty()) {
      problems.add(lost.size() + " acknowledged single-row writes lost, e.g. " + lost.subList(0, Math.min(5, lost.size())));
    }
  }

  private void checkCounter(LogBaseClient client, Recorder recorder, List<String> problems) {
    List<String> wrong = Counter.problems(client, recorder.increments());
    say("counter: %d increments acknowledged; %d problems%s", recorder.increments().size(), wrong.size(),
        wrong.isEmpty() ? "" : ", e.g. " + wrong.subList(0, Math.min(5, wrong.size())));
    if (!wrong.isEmpty()) {
      problems.add("counter and markers disagree: " + wrong.subList(0, Math.min(5, wrong.size())));
    }
  }

  private void report(Recorder recorder, Nemesis nemesis, long committed, List<String> problems) {
    List<Txn> h = recorder.listAppendHistory();
    say("operations: list-append %d ok / %d fail / %d unknown; transfers %d ok / %d fail / %d unknown; "
            + "%d counter increments; %d committed transactions in all",
        h.stream().filter(t -> t.outcome() == Outcome.OK).count(),
        h.stream().filter(t -> t.outcome() == Outcome.FAIL).count(),
        h.stream().filter(t -> t.outcome() == Outcome.INFO).count(),
        recorder.transfers(Outcome.OK), recorder.transfers(Outcome.FAIL), recorder.transfers(Outcome.INFO),
        recorder.increments().size(), committed);
    StringBuilder f = new StringBuilder();
    nemesis.counts().forEach((k, v) -> f.append(f.length() == 0 ? "" : ", ").append(k.label()).append(' ').append(v));
    say("faults: %s; %d tablet server and master kills (log: %s)", f.length() == 0 ? "none" : f,
        nemesis.serverKills(), dir.resolve("nemesis.txt"));
    if (problems.isEmpty()) {
      say("RESULT: no anomalies");
    } else {
      say("RESULT: %d problems", problems.size());
      problems.forEach(p -> say("  PROBLEM: %s", p));
    }
  }

  private void say(String format, Object... args) {
    out.println("CHAOS " + String.format(format, args));
    out.flush();
  }

  /** The client processes of the run: started, killed by the nemesis, replaced. */
  private static final class ClientProcesses implements Nemesis.Clients {
    private final ChaosCluster cluster;
    private final Recorder recorder;
    private final RunClock clock;
    private final int accounts;
    private final List<Daemon> running = new CopyOnWriteArrayList<>();
    private int next = 1000;

    ClientProcesses(ChaosCluster cluster, Recorder recorder, RunClock clock, int accounts) {
      this.cluster = cluster;
      this.recorder = recorder;
      this.clock = clock;
      this.accounts = accounts;
    }

    synchronized void startOne() throws Exception {
      int process = next++;
      Daemon d = new Daemon("client-" + process, ChaosClient.class, List.of("-Xmx192m", "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1", "-Dlog4j.configuration=chaos-log4j.properties"),
          List.of("--zookeeper", cluster.zkConnect(), "--run-start", Long.toString(clock.startEpochNanos()),
              "--process", Integer.toString(process), "--accounts", Integer.toString(accounts)),
          cluster.dir().resolve("logs/client-" + process + ".log").toFile(), recorder::line);
      cluster.track(d);
      d.start();
      d.await(l -> l.startsWith("CLIENT READY"), ChaosCluster.START);
      running.add(d);
    }

    @Override
    public List<Daemon> running() {
      return List.copyOf(running);
    }

    @Override
    public void replace(Daemon killed) throws Exception {
      running.remove(killed);
      startOne();
    }

    void stopAll() throws InterruptedException {
      for (Daemon d : running) {
        d.stop();
      }
    }
  }
}
