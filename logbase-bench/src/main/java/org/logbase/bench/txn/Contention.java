package org.logbase.bench.txn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.bench.engine.Report;
import org.logbase.bench.engine.Sample;
import org.logbase.bench.engine.ThreadCpuProfile;
import org.logbase.bench.engine.TimedLoop;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.logbase.txn.LockManagers;
import site.ycsb.generator.ZipfianGenerator;

/**
 * The contention phase of {@link TxnBenchmark}: read-modify-write transactions on few, Zipfian
 * chosen rows, once per lock manager, each on a cluster of its own (tablet servers read
 * {@code txn.lock.manager} when they start); trials alternate between the clusters. Row rank i of
 * the Zipfian distribution is row i of tablet i mod 3, so the hot rows are spread over the three
 * servers and most transactions commit in two phases.
 */
final class Contention {
  /** @param keys rows the transactions choose from; @param zipfConstant YCSB's skew (0.99 is its default) */
  record Settings(int keys, double zipfConstant) {}

  /** One lock manager's cluster, its loop and what the loop counted. */
  private static final class Target {
    final String lockManager;
    final LogBaseClient client;
    final String table;
    final ZipfianGenerator zipf;
    final LongAdder commits = new LongAdder();
    final LongAdder aborts = new LongAdder();

    Target(String lockManager, LogBaseClient client, String table, Settings s) {
      this.lockManager = lockManager;
      this.client = client;
      this.table = table;
      this.zipf = new ZipfianGenerator(s.keys(), s.zipfConstant());
    }

    /** One attempt: read two distinct rows, write both back incremented, commit; a conflict counts as an abort. */
    int attempt() {
      long a = zipf.nextValue();
      long b;
      do {
        b = zipf.nextValue();
      } while (b == a);
      byte[] ka = key(a);
      byte[] kb = key(b);
      try (Transaction txn = client.begin()) {
        long va = TxnBenchmark.decode(txn.get(table, ka));
        long vb = TxnBenchmark.decode(txn.get(table, kb));
        txn.put(table, ka, Map.of(SpreadTable.COLUMN, TxnBenchmark.encode(va + 1)));
        txn.put(table, kb, Map.of(SpreadTable.COLUMN, TxnBenchmark.encode(vb + 1)));
        txn.commit();
        commits.increment();
      } catch (TransactionConflictException | TransactionAbortedException e) {
        aborts.increment();
      }
      return 1;
    }

    private static byte[] key(long rank) {
      return SpreadTable.key((int) (rank % SpreadTable.TABLETS), rank);
    }
  }

  /** What one trial's window counted. */
  private record Window(double attemptsPerSecond, double committedPerSecond, double abortRate) {}

  private final TxnBenchmark bench;
  private final Settings settings;

  Contention(TxnBenchmark bench, Settings settings) {
    this.bench = bench;
    this.settings = settings;
  }

  /**
   * @param first the cluster the other phases ran on, with its lock manager
   * @param more the other lock managers: each gets a cluster of its own, started here and closed at the end
   */
  void run(InProcessCluster first, String firstLockManager, List<String> more, String fsRoot, List<Integer> threadCounts)
      throws Exception {
    List<InProcessCluster> started = new ArrayList<>();
    try {
      Map<String, InProcessCluster> clusters = new LinkedHashMap<>();
      clusters.put(firstLockManager, first);
      for (String lm : more) {
        if (lm.equals("zookeeper") && !available("org.logbase.txn.ZooKeeperLockManager")) {
          System.out.println("SKIPPED lock manager zookeeper: org.logbase.txn.ZooKeeperLockManager is not in this build");
          Report.result("txn.contention", "lock_manager", lm, "skipped", "not_in_this_build");
          continue;
        }
        InProcessCluster c = InProcessCluster.start("txnbench-" + lm, 3, fsRoot, Map.of(LockManagers.LOCK_MANAGER, lm));
        started.add(c);
        clusters.put(lm, c);
      }
      List<Target> targets = new ArrayList<>();
      for (Map.Entry<String, InProcessCluster> c : clusters.entrySet()) {
        SpreadTable t = SpreadTable.create(c.getValue().client(), "rmw");
        targets.add(new Target(c.getKey(), c.getValue().client(), t.name(), settings));
      }
      measure(targets, threadCounts);
    } finally {
      for (InProcessCluster c : started) {
        c.close();
      }
    }
  }

  private void measure(List<Target> targets, List<Integer> threadCounts) throws Exception {
    int most = threadCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
    for (Target t : targets) {
      System.out.printf("JIT warm-up (not counted): read-modify-write with %d threads, lock manager %s%n", most,
          t.lockManager);
      bench.jit("rmw-" + t.lockManager, most, (thread, rng) -> t.attempt());
    }
    Report table = new Report("lock manager", "threads", "committed txn/s", "attempts/s", "abort rate");
    List<Runnable> results = new ArrayList<>();
    for (int threads : threadCounts) {
      Report.heading(String.format("contention: %d threads, read-modify-write of 2 of %d rows (Zipfian %.2f)",
          threads, settings.keys(), settings.zipfConstant()));
      Map<Target, Sample[]> samples = new LinkedHashMap<>();
      Map<Target, ThreadCpuProfile> profiles = new LinkedHashMap<>();
      for (Target t : targets) {
        samples.put(t, new Sample[] {new Sample(), new Sample(), new Sample()});
        profiles.put(t, bench.profile("read-modify-write, lock manager " + t.lockManager + ", " + threads + " threads"));
      }
      for (int trial = 0; trial < bench.trials(); trial++) {
        StringBuilder line = new StringBuilder("trial " + (trial + 1) + ":");
        for (int i = 0; i < targets.size(); i++) {
          Target t = targets.get((trial + i) % targets.size());
          Window w = window(t, threads, 1000L * trial + threads, profiles.get(t));
          Sample[] s = samples.get(t);
          s[0].add(w.committedPerSecond());
          s[1].add(w.attemptsPerSecond());
          s[2].add(w.abortRate());
          line.append(String.format("  %s %s committed/s, abort rate %.3f", t.lockManager,
              Report.num(w.committedPerSecond()), w.abortRate()));
        }
        System.out.println(line);
      }
      profiles.values().forEach(TxnBenchmark::print);
      for (Target t : targets) {
        Sample[] s = samples.get(t);
        double committed = s[0].median();
        double attempts = s[1].median();
        double abortRate = s[2].median();
        table.row(t.lockManager, threads, committed, attempts, abortRate);
        results.add(() -> Report.result("txn.contention", "lock_manager", t.lockManager, "threads", threads,
            "committed_per_s", Math.round(committed), "attempts_per_s", Math.round(attempts), "abort_rate", abortRate,
            "keys", settings.keys(), "zipf_constant", settings.zipfConstant(), "trials", bench.trials()));
      }
    }
    for (Target t : targets) {
      long sum = TxnBenchmark.sum(t.client, t.table);
      long expected = 2 * t.commits.sum();
      System.out.printf("lock manager %s: %,d commits and %,d aborts in all; sum of the rows %,d, expected %,d: %s%n",
          t.lockManager, t.commits.sum(), t.aborts.sum(), sum, expected, sum == expected ? "OK" : "LOST UPDATES");
      if (sum != expected) {
        throw new IllegalStateException("lock manager " + t.lockManager + ": the rows sum to " + sum + ", not "
            + expected + " (twice the commits)");
      }
    }
    Report.heading("read-modify-write transactions under contention (medians; conflicts are not retried)");
    table.print();
    results.forEach(Runnable::run);
  }

  private Window window(Target t, int threads, long seed, ThreadCpuProfile profile) throws Exception {
    long[] counts = new long[4];
    TimedLoop.Result r = bench.measure("rmw-" + t.lockManager, threads, seed, profile, () -> {
      counts[0] = t.commits.sum();
      counts[1] = t.aborts.sum();
    }, () -> {
      counts[2] = t.commits.sum();
      counts[3] = t.aborts.sum();
    }, (thread, rng) -> t.attempt());
    long commits = counts[2] - counts[0];
    long aborts = counts[3] - counts[1];
    return new Window(r.perSecond(), commits / r.seconds(), (double) aborts / Math.max(1, commits + aborts));
  }

  private static boolean available(String className) {
    try {
      Class.forName(className, false, Contention.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
