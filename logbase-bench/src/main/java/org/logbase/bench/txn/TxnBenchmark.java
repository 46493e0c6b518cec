package org.logbase.bench.txn;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.logbase.bench.engine.Args;
import org.logbase.bench.engine.BenchMain;
import org.logbase.bench.engine.Report;
import org.logbase.bench.engine.Sample;
import org.logbase.bench.engine.ThreadCpuProfile;
import org.logbase.bench.engine.TimedLoop;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Table;
import org.logbase.client.Transaction;
import org.logbase.common.Row;
import org.logbase.txn.LockManagers;

/**
 * Transaction throughput on a cluster in this JVM ({@link InProcessCluster}: ZooKeeper, a master,
 * three tablet servers, logs on the local file system, a client over loopback gRPC), in one run:
 *
 * <ol>
 *   <li><b>commit</b>: one-row transactions ({@code begin}, one put of a {@code --value-bytes}
 *       value, {@code commit}) against autocommit puts of the same rows, same threads; random keys
 *       of a 2^63 key space (no contention), all on one tablet server;
 *   <li><b>twophase</b>: transactions writing two rows on two tablet servers (two-phase commit)
 *       against two rows on one server (one Commit request);
 *   <li><b>contention</b>: read-modify-write transactions (read two rows, write both back
 *       incremented) on {@code --keys} rows chosen by YCSB's Zipfian generator, the rows spread over
 *       the three servers, with the owner-local lock manager and the ZooKeeper one, each on its own
 *       cluster; conflicts are counted, not retried. At the end the sum of all rows must be twice
 *       the number of commits (no lost update).
 * </ol>
 *
 * <p>The ways compared in a phase alternate within each trial (which goes first rotates), and
 * medians over the trials are reported, so that noise on the shared machine hits all sides. Prints
 * tables and {@code RESULT name=txn.<phase> ...} lines.
 */
public final class TxnBenchmark {
  private static final String COMMIT = "commit";
  private static final String TWO_PHASE = "twophase";
  private static final String CONTENTION = "contention";
  static final Runnable NOTHING = () -> {};

  /** One way of writing, measured as a loop; {@code key} names it in RESULT lines. */
  private record Way(String name, String key, TimedLoop.Op op) {}

  /** A way's medians over the trials: operations per second and CPU (this whole JVM) per operation. */
  private record Measured(Sample perSecond, Sample cpuMicros) {
    Measured() {
      this(new Sample(), new Sample());
    }

    void add(TimedLoop.Result r) {
      perSecond.add(r.perSecond());
      cpuMicros.add(r.cpuCores() * 1e6 / r.perSecond());
    }
  }

  private final Duration warmup;
  private final Duration window;
  private final Duration jitWarmup;
  private final int trials;
  private final byte[] value;
  private final boolean profiling;

  private TxnBenchmark(Duration warmup, Duration window, Duration jitWarmup, int trials, int valueBytes,
      boolean profiling) {
    this.profiling = profiling;
    this.warmup = warmup;
    this.window = window;
    this.jitWarmup = jitWarmup;
    this.trials = trials;
    this.value = new byte[valueBytes];
    new SplittableRandom(42).nextBytes(value);
  }

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    List<Integer> threads = ints(a.string("threads", "1,4,16"));
    List<Integer> twoPhaseThreads = ints(a.string("twophase-threads", "1,4,16"));
    List<Integer> contentionThreads = ints(a.string("contention-threads", "8,16"));
    Duration warmup = Duration.ofSeconds(a.longValue("warmup-seconds", 2));
    Duration window = Duration.ofSeconds(a.longValue("seconds", 4));
    Duration jit = Duration.ofSeconds(a.longValue("jit-seconds", 3));
    int trials = a.intValue("trials", 3);
    int valueBytes = a.intValue("value-bytes", 1024);
    int keys = a.intValue("keys", 1000);
    double zipf = Double.parseDouble(a.string("zipf-constant", "0.99"));
    List<String> lockManagers = Arrays.stream(a.string("lock-managers", "local,zookeeper").split(","))
        .map(String::trim).toList();
    Set<String> phases = Set.of(a.string("phases", COMMIT + "," + TWO_PHASE + "," + CONTENTION).split(","));
    String fsRoot = a.string("fs-root", "");
    boolean profile = a.bool("profile", false);
    BenchMain.runAndExit("TxnBenchmark", () -> {
      a.finish("TxnBenchmark");
      TxnBenchmark b = new TxnBenchmark(warmup, window, jit, trials, valueBytes, profile);
      Report.heading(String.format("TxnBenchmark: %d-byte values, %d s windows after %d s warm-up, %d trials, "
          + "3 tablet servers in this JVM", valueBytes, window.toSeconds(), warmup.toSeconds(), trials));
      b.run(fsRoot.isEmpty() ? null : fsRoot, phases, threads, twoPhaseThreads, contentionThreads,
          new Contention.Settings(keys, zipf), lockManagers);
    });
  }

  private void run(String fsRoot, Set<String> phases, List<Integer> threads, List<Integer> twoPhaseThreads,
      List<Integer> contentionThreads, Contention.Settings contention, List<String> lockManagers) throws Exception {
    String first = lockManagers.get(0);
    try (InProcessCluster cluster = InProcessCluster.start("txnbench-" + first, 3, fsRoot,
        Map.of(LockManagers.LOCK_MANAGER, first))) {
      LogBaseClient client = cluster.client();
      SpreadTable t = SpreadTable.create(client, "t");
      Table table = client.table(t.name());
      Way autocommit = new Way("autocommit", "autocommit", (thread, rng) -> {
        table.put(SpreadTable.key(0, rng.nextLong()), Map.of(SpreadTable.COLUMN, value));
        return 1;
      });
      Way oneRow = new Way("txn", "txn", (thread, rng) -> commit(client, t, 0, rng.nextLong()));
      Way twoRowsOneServer = new Way("1 server", "one_server", (thread, rng) ->
          commit(client, t, 0, rng.nextLong(), 0, rng.nextLong()));
      Way twoRowsTwoServers = new Way("2 servers", "two_servers", (thread, rng) ->
          commit(client, t, 0, rng.nextLong(), 1, rng.nextLong()));
      if (phases.contains(COMMIT) || phases.contains(TWO_PHASE)) {
        int most = Math.max(max(threads), max(twoPhaseThreads));
        System.out.printf("JIT warm-up (not counted): %d s of each way with %d threads%n", jitWarmup.toSeconds(), most);
        for (Way w : List.of(autocommit, oneRow, twoRowsOneServer, twoRowsTwoServers)) {
          jit(w.name(), most, w.op());
        }
      }
      if (phases.contains(COMMIT)) {
        comparePhase("txn.commit", "one-row transactions vs autocommit puts on one tablet server", threads, oneRow,
            autocommit, n -> String.format("commit: %d thread(s), one row of %d bytes per transaction / put, all on %s",
                n, value.length, t.server(0)));
      }
      if (phases.contains(TWO_PHASE)) {
        comparePhase("txn.twophase", "two-row transactions: two-phase commit over 2 servers vs one Commit on 1 server",
            twoPhaseThreads, twoRowsTwoServers, twoRowsOneServer, n -> String.format(
                "twophase: %d thread(s), two rows per transaction on %s and %s / both on %s", n, t.server(0),
                t.server(1), t.server(0)));
      }
      if (phases.contains(CONTENTION)) {
        new Contention(this, contention).run(cluster, first, lockManagers.subList(1, lockManagers.size()), fsRoot,
            contentionThreads);
      }
    }
  }

  /** Begins a transaction, puts the value into row n of tablet t for each (t, n) pair, commits. */
  private int commit(LogBaseClient client, SpreadTable t, long... tabletAndRow) {
    try (Transaction txn = client.begin()) {
      for (int i = 0; i < tabletAndRow.length; i += 2) {
        txn.put(t.name(), SpreadTable.key((int) tabletAndRow[i], tabletAndRow[i + 1]), Map.of(SpreadTable.COLUMN, value));
      }
      txn.commit();
    }
    return 1;
  }

  /**
   * Compares {@code x} with the baseline {@code y} at each thread count: medians, their ratio and the
   * CPU per operation, as a table and one {@code RESULT name=<result>} line per thread count.
   */
  private void comparePhase(String result, String title, List<Integer> threadCounts, Way x, Way y,
      IntFunction<String> heading) throws Exception {
    Report table = new Report("threads", x.name() + "/s", y.name() + "/s", "ratio", x.name() + " cpu us",
        y.name() + " cpu us");
    List<Runnable> results = new ArrayList<>();
    for (int threads : threadCounts) {
      Report.heading(heading.apply(threads));
      Map<String, Measured> m = compare(threads, List.of(x, y));
      double xs = m.get(x.name()).perSecond().median();
      double ys = m.get(y.name()).perSecond().median();
      double xCpu = m.get(x.name()).cpuMicros().median();
      double yCpu = m.get(y.name()).cpuMicros().median();
      table.row(threads, xs, ys, xs / ys, xCpu, yCpu);
      results.add(() -> Report.result(result, "threads", threads, x.key() + "_per_s", Math.round(xs),
          y.key() + "_per_s", Math.round(ys), "ratio", xs / ys, x.key() + "_cpu_us", xCpu, y.key() + "_cpu_us", yCpu,
          "value_bytes", value.length, "trials", trials));
    }
    Report.heading(title + " (medians; cpu = this JVM's CPU per operation, all servers included)");
    table.print();
    results.forEach(Runnable::run);
  }

  /**
   * Runs every way {@link #trials} times with {@code threads} threads; which way goes first rotates
   * from trial to trial, and all ways of a trial draw the same keys.
   */
  private Map<String, Measured> compare(int threads, List<Way> ways) throws Exception {
    Map<String, Measured> out = new LinkedHashMap<>();
    Map<String, ThreadCpuProfile> profiles = new LinkedHashMap<>();
    ways.forEach(w -> {
      out.put(w.name(), new Measured());
      profiles.put(w.name(), profile(w.name() + ", " + threads + " threads"));
    });
    for (int trial = 0; trial < trials; trial++) {
      StringBuilder line = new StringBuilder("trial " + (trial + 1) + ":");
      for (int i = 0; i < ways.size(); i++) {
        Way w = ways.get((trial + i) % ways.size());
        TimedLoop.Result r = measure(w.name(), threads, 1000L * trial + threads, profiles.get(w.name()), NOTHING,
            NOTHING, w.op());
        out.get(w.name()).add(r);
        line.append(String.format("  %s %s/s (%s cores, %s us cpu/op)", w.name(), Report.num(r.perSecond()),
            Report.num(r.cpuCores()), Report.num(r.cpuCores() * 1e6 / r.perSecond())));
      }
      System.out.println(line);
    }
    profiles.values().forEach(TxnBenchmark::print);
    return out;
  }

  /**
   * One measured window of {@code op} after this run's warm-up; the hooks run at the window's edges,
   * and the window's CPU by thread pool goes into {@code profile} unless it is null.
   */
  TimedLoop.Result measure(String name, int threads, long seed, ThreadCpuProfile profile, Runnable atStart,
      Runnable atEnd, TimedLoop.Op op) throws Exception {
    TimedLoop loop = new TimedLoop(name, threads, seed).warmup(warmup).window(window);
    if (profile == null) {
      loop.around(atStart, atEnd);
    } else {
      loop.around(() -> {
        atStart.run();
        profile.start();
      }, () -> {
        profile.stop();
        atEnd.run();
      });
    }
    TimedLoop.Result r = loop.run(op);
    if (profile != null) {
      profile.count(r.items());
    }
    return r;
  }

  /** A profile to fill with {@link #measure}, or null without --profile. */
  ThreadCpuProfile profile(String name) {
    return profiling ? new ThreadCpuProfile(name) : null;
  }

  static void print(ThreadCpuProfile profile) {
    if (profile != null) {
      profile.print();
    }
  }

  TimedLoop.Result jit(String name, int threads, TimedLoop.Op op) throws Exception {
    return new TimedLoop("jit-" + name, threads, 1).warmup(Duration.ZERO).window(jitWarmup).run(op);
  }

  int trials() {
    return trials;
  }

  static long decode(Row row) {
    byte[] v = row == null ? null : row.value(SpreadTable.COLUMN);
    return v == null ? 0 : ByteBuffer.wrap(v).getLong();
  }

  static byte[] encode(long v) {
    return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
  }

  /** Sum of column v over all rows of a table, as of a fresh snapshot. */
  static long sum(LogBaseClient client, String table) {
    try (Transaction snapshot = client.beginReadOnly()) {
      return snapshot.scan(table, ScanSpec.all()).stream().mapToLong(TxnBenchmark::decode).sum();
    }
  }

  private static List<Integer> ints(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Integer::parseInt).toList();
  }

  private static int max(List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).max().orElse(1);
  }
}
