package org.logbase.bench.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.log.RecordCodec;
import org.logbase.tablet.RecordCaches;
import org.logbase.common.Row;
import org.logbase.tablet.Tablet;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * Uncached random reads: {@code tablet.get} of uniformly chosen existing rows (1 KiB values, record
 * cache off) against raw positioned reads of the very same log records (same segments, offsets,
 * lengths, chosen by the same random sequence). Ratio = engine / raw, per thread count: how close an
 * index lookup plus a CRC-checked record read comes to the bare HDFS pread it cannot avoid.
 */
public final class RandomGetBenchmark {
  private static final String ROOT = "/get";

  private final Tablet tablet;
  private final PreadBaseline raw;
  private final int rows;
  private final Duration warmup;
  private final Duration window;
  private final StackSampler engineProfile;
  private final StackSampler rawProfile;

  private RandomGetBenchmark(Tablet tablet, PreadBaseline raw, int rows, Duration warmup, Duration window,
      boolean profile) {
    this.tablet = tablet;
    this.raw = raw;
    this.rows = rows;
    this.warmup = warmup;
    this.window = window;
    this.engineProfile = profile ? new StackSampler("engine-get", 5) : null;
    this.rawProfile = profile ? new StackSampler("raw-pread", 5) : null;
  }

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    int rows = a.intValue("rows", 200_000);
    int valueBytes = a.intValue("value-bytes", 1024);
    int loadWriters = a.intValue("load-writers", 32);
    String threadList = a.string("threads", "1,4");
    int trials = a.intValue("trials", 5);
    Duration warmup = Duration.ofSeconds(a.longValue("warmup-seconds", 1));
    Duration window = Duration.ofSeconds(a.longValue("seconds", 5));
    Duration jitWarmup = Duration.ofSeconds(a.longValue("jit-warmup-seconds", 8));
    int verify = a.intValue("verify", 1000);
    double target = a.doubleValue("target", 0.85);
    boolean profile = a.bool("profile", false);
    BenchMain.run("RandomGetBenchmark", a, cluster -> {
      KvRows kv = new KvRows(valueBytes);
      Config config = Engines.withoutAutomaticCheckpoints(Config.empty().with(RecordCaches.POLICY, "none"));
      Report.heading(String.format("RandomGetBenchmark: %,d rows of %d bytes, uniform gets, record cache off,"
          + " %d s windows after %d s warm-up", rows, valueBytes, window.toSeconds(), warmup.toSeconds()));
      try (StorageEngine engine = Engines.open(cluster, ROOT, config, true);
          TxnManager txns = TxnManager.standalone(engine)) {
        Tablet tablet = Engines.kv(engine);
        System.out.printf("loading with %d writers...%n", loadWriters);
        double rate = Loader.load(txns, tablet, kv, 0, rows, loadWriters);
        System.out.printf("loaded %,d rows at %,.0f rows/s; log %s%n", rows, rate, engine.logStats());
        Path logDir = cluster.path(Engines.logDir(ROOT));
        LogLocations locations = LogLocations.scan(cluster.fs(), logDir, rows);
        System.out.printf("found every row in the log: %d segments%n", locations.maxSegment());
        try (PreadBaseline raw = new PreadBaseline(cluster.fs(), logDir, locations)) {
          verify(kv, tablet, raw, rows, verify);
          new RandomGetBenchmark(tablet, raw, rows, warmup, window, profile).run(parseThreads(threadList), trials, jitWarmup,
              target);
        }
      }
      cluster.delete(ROOT);
    });
  }

  /** Fails loudly unless the engine and the baseline both return the rows as written. */
  private static void verify(KvRows kv, Tablet tablet, PreadBaseline raw, int rows, int samples) throws Exception {
    SplittableRandom rng = new SplittableRandom(7);
    for (int i = 0; i < samples; i++) {
      int row = rng.nextInt(rows);
      kv.check(row, tablet.get(KvRows.key(row), null, HybridTimestamp.LATEST));
      byte[] frame = raw.read(row);
      kv.check(row, RecordCodec.decode(frame, 0, frame.length, "baseline read of row " + row));
    }
    System.out.printf("verified %d random rows through the engine and through raw reads%n", samples);
  }

  private void run(List<Integer> threadCounts, int trials, Duration jitWarmup, double target) throws Exception {
    // The first tens of seconds of a JVM running a MiniDFSCluster are markedly slower (the client's and
    // the DataNode's read paths are still being compiled): whichever side ran first would lose.
    int most = threadCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
    System.out.printf("JIT warm-up (not counted): %d s of engine gets, then %d s of raw reads, %d threads%n",
        jitWarmup.toSeconds(), jitWarmup.toSeconds(), most);
    new TimedLoop("warmup-get", most, 1).warmup(jitWarmup).window(Duration.ofMillis(1)).run(this::engineGet);
    new TimedLoop("warmup-pread", most, 1).warmup(jitWarmup).window(Duration.ofMillis(1)).run(this::rawRead);
    Report table = new Report("threads", "trial", "side", "gets/s", "cpu cores");
    List<String> summary = new ArrayList<>();
    List<Runnable> results = new ArrayList<>();
    Report medians = new Report("threads", "engine median", "raw median", "ratio", "engine best", "raw best",
        "ratio of bests");
    for (int threads : threadCounts) {
      Sample engine = new Sample();
      Sample baseline = new Sample();
      for (int t = 1; t <= trials; t++) {
        // Same seed on both sides: each thread walks the same sequence of rows.
        long seed = 1000L * t + 100L * threads;
        TimedLoop.Result e = loop("engine-get", threads, seed, engineProfile).run(this::engineGet);
        TimedLoop.Result b = loop("raw-pread", threads, seed, rawProfile).run(this::rawRead);
        engine.add(e.perSecond());
        baseline.add(b.perSecond());
        table.row(threads, t, "engine", e.perSecond(), e.cpuCores());
        table.row(threads, t, "raw", b.perSecond(), b.cpuCores());
        System.out.printf("  %d threads, trial %d: engine %s gets/s, raw %s reads/s%n", threads, t,
            Report.num(e.perSecond()), Report.num(b.perSecond()));
      }
      double ratio = engine.median() / baseline.median();
      medians.row(threads, engine.median(), baseline.median(), ratio, engine.max(), baseline.max(),
          engine.max() / baseline.max());
      summary.add(threads + " threads: ratio of medians " + Report.num(ratio) + ", " + Report.verdict(ratio, target));
      results.add(() -> Report.result("engine.get.uniform", "unit", "gets/s", "threads", threads, "rows", rows,
          "engine", engine.median(), "baseline", baseline.median(), "ratio", ratio, "target", target,
          "trials", engine.size()));
    }
    System.out.println();
    table.print();
    System.out.println();
    medians.print();
    summary.forEach(System.out::println);
    if (engineProfile != null) {
      engineProfile.print("engine gets, all thread counts", 15);
      rawProfile.print("raw reads, all thread counts", 10);
    }
    results.forEach(Runnable::run);
  }

  private int engineGet(int thread, SplittableRandom rng) throws Exception {
    int row = rng.nextInt(rows);
    Row r = tablet.get(KvRows.key(row), null, HybridTimestamp.LATEST);
    if (r == null) {
      throw new IllegalStateException("row " + row + " not found");
    }
    return 1;
  }

  private int rawRead(int thread, SplittableRandom rng) throws Exception {
    raw.read(rng.nextInt(rows));
    return 1;
  }

  private TimedLoop loop(String name, int threads, long seed, StackSampler profile) {
    BenchMain.gc();
    TimedLoop loop = new TimedLoop(name, threads, seed).warmup(warmup).window(window);
    return profile == null ? loop : loop.around(profile::start, profile::stop);
  }

  private static List<Integer> parseThreads(String list) {
    List<Integer> out = new ArrayList<>();
    for (String s : list.split(",")) {
      out.add(Integer.parseInt(s.trim()));
    }
    return out;
  }
}
