package org.logbase.bench.engine;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Config;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.log.LogStats;
import org.logbase.tablet.Tablet;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;
import org.logbase.txn.WriteBatch;

/**
 * Durable write throughput: N concurrent writers doing {@code tablet.put} of 1 KiB values with
 * HFLUSH, against a raw HDFS append loop that writes frames of the same size in batches of the size
 * the engine's group commit achieved, one hflush per batch. Ratio = engine / baseline: how much of
 * what HDFS can do at that batch size the engine delivers.
 */
public final class WriteThroughputBenchmark {
  private final BenchCluster cluster;
  private final KvRows rows;
  private final int writers;
  /** Puts each writer has in flight: 1 blocks on every put, more use the asynchronous put. */
  private final int putsInFlight;
  private final Duration warmup;
  private final Duration window;
  private final Config config;
  private final boolean baselineRolls;
  private final StackSampler engineProfile;
  private final StackSampler baselineProfile;
  private int runs;

  /** One engine trial: throughput seen by the writers, and what the log did meanwhile. */
  private record EngineRun(TimedLoop.Result loop, LogStats window) {
    double recordsPerBatch() {
      return window.recordsPerBatch();
    }

    double bytesPerRecord() {
      return (double) window.bytes() / window.records();
    }
  }

  private WriteThroughputBenchmark(BenchCluster cluster, KvRows rows, int writers, int putsInFlight, Duration warmup,
      Duration window, Config config, boolean baselineRolls, boolean profile) {
    this.cluster = cluster;
    this.config = config;
    this.baselineRolls = baselineRolls;
    this.rows = rows;
    this.writers = writers;
    this.putsInFlight = putsInFlight;
    this.warmup = warmup;
    this.window = window;
    this.engineProfile = profile ? new StackSampler("log-writer", 5) : null;
    this.baselineProfile = profile ? new StackSampler("baseline-writer", 5) : null;
  }

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    int writers = a.intValue("writers", 16);
    int inFlight = a.intValue("in-flight", 1);
    int valueBytes = a.intValue("value-bytes", 1024);
    int trials = a.intValue("trials", 4);
    Duration warmup = Duration.ofSeconds(a.longValue("warmup-seconds", 3));
    Duration window = Duration.ofSeconds(a.longValue("seconds", 8));
    boolean profile = a.bool("profile", false);
    boolean baselineRolls = a.bool("baseline-roll", false);
    Config config = Engines.withoutAutomaticCheckpoints(Engines.parseConfig(a.string("engine-config", "")));
    double target = a.doubleValue("target", 0.75);
    if (inFlight < 1) {
      throw new IllegalArgumentException("--in-flight must be at least 1");
    }
    if (writers < 8) {
      throw new IllegalArgumentException("--writers must be at least 8: group commit needs concurrent writers");
    }
    BenchMain.run("WriteThroughputBenchmark", a, cluster ->
        new WriteThroughputBenchmark(cluster, new KvRows(valueBytes), writers, inFlight, warmup, window, config,
            baselineRolls,
            profile)
            .run(trials, target));
  }

  private void run(int trials, double target) throws Exception {
    byte[] frame = rows.sampleFrame();
    Report.heading(String.format("WriteThroughputBenchmark: %d writers x %d puts in flight, %d-byte values"
        + " (%d-byte frames), HFLUSH, %d s windows after %d s warm-up", writers, putsInFlight, rows.valueBytes(),
        frame.length, window.toSeconds(),
        warmup.toSeconds()));
    System.out.printf("engine config %s; the baseline %s%n", config.asMap(),
        baselineRolls ? "rolls files at the engine's segment size" : "appends to one file (no rolls)");
    System.out.println("warm-up round (not counted): engine, then baseline");
    EngineRun first = engineRun(false);
    baselineRun(frame, first.recordsPerBatch(), false);

    Sample engine = new Sample();
    Sample baseline = new Sample();
    Sample batch = new Sample();
    Sample engineCpu = new Sample();
    Report table = new Report("trial", "side", "records/s", "recs/flush", "bytes/rec", "cpu cores");
    for (int t = 1; t <= trials; t++) {
      EngineRun e = engineRun(true);
      if (Math.round(e.bytesPerRecord()) != frame.length) {
        throw new IllegalStateException("the engine wrote " + e.bytesPerRecord() + " bytes per record but the"
            + " baseline frame has " + frame.length + ": the baseline would not write the same bytes");
      }
      engine.add(e.loop().perSecond());
      batch.add(e.recordsPerBatch());
      engineCpu.add(e.loop().cpuCores());
      table.row(t, "engine", e.loop().perSecond(), e.recordsPerBatch(), e.bytesPerRecord(), e.loop().cpuCores());
      // The baseline flushes batches of the size this very engine trial achieved.
      TimedLoop.Result b = baselineRun(frame, e.recordsPerBatch(), true);
      baseline.add(b.perSecond());
      table.row(t, "baseline", b.perSecond(), e.recordsPerBatch(), (double) frame.length, b.cpuCores());
      System.out.printf("  trial %d: engine %s records/s (%.2f per flush), baseline %s records/s%n", t,
          Report.num(e.loop().perSecond()), e.recordsPerBatch(), Report.num(b.perSecond()));
    }

    double ratio = engine.median() / baseline.median();
    System.out.println();
    table.print();
    System.out.println();
    new Report("", "median", "best")
        .row("engine records/s", engine.median(), engine.max())
        .row("baseline records/s", baseline.median(), baseline.max())
        .row("records per flush", batch.median(), batch.max())
        .row("ratio engine/baseline", ratio, engine.max() / baseline.max())
        .print();
    System.out.println("ratio of medians " + Report.num(ratio) + ": " + Report.verdict(ratio, target));
    if (engineProfile != null) {
      engineProfile.print("engine trials", 15);
      baselineProfile.print("baseline trials", 8);
    }
    Report.result("engine.write.hflush", "unit", "records/s", "writers", writers, "in_flight", putsInFlight,
        "value_bytes", rows.valueBytes(),
        "frame_bytes", frame.length, "engine", engine.median(), "baseline", baseline.median(), "ratio", ratio,
        "target", target, "records_per_flush", batch.median(), "engine_cpu_cores", engineCpu.median(), "trials",
        engine.size(), "baseline_rolls", baselineRolls, "fs", cluster.uri(""),
        // Same measure as ServerProbe's for a tablet server's log writer (n/a without --profile).
        "log_writer_waiting_for_work", engineProfile == null ? Double.NaN : engineProfile.share(StackSampler.LOG_WRITER_IDLE));
  }

  private EngineRun engineRun(boolean profiled) throws Exception {
    String root = "/write/engine-" + (++runs);
    BenchMain.gc();
    LogStats[] at = new LogStats[2];
    TimedLoop.Result loop;
    try (StorageEngine engine = Engines.open(cluster, root, config, true);
        TxnManager txns = TxnManager.standalone(engine)) {
      Tablet tablet = Engines.kv(engine);
      AtomicLong next = new AtomicLong();
      StackSampler profile = profiled ? engineProfile : null;
      loop = new TimedLoop("engine-writer", writers, runs)
          .warmup(warmup)
          .window(window)
          .around(() -> {
            at[0] = engine.logStats();
            start(profile);
          }, () -> {
            at[1] = engine.logStats();
            stop(profile);
          })
          .run((thread, rng) -> {
            if (putsInFlight == 1) {
              long r = next.getAndIncrement();
              txns.put(tablet, KvRows.key(r), rows.columns(r), Durability.HFLUSH);
              return 1;
            }
            // Like the tablet server's RPC handlers: puts in flight without a thread blocked on each.
            CompletableFuture<?>[] inFlight = new CompletableFuture<?>[putsInFlight];
            for (int i = 0; i < putsInFlight; i++) {
              long r = next.getAndIncrement();
              inFlight[i] = txns.write(new WriteBatch().put(tablet, KvRows.key(r), rows.columns(r)), Durability.HFLUSH);
            }
            CompletableFuture.allOf(inFlight).join();
            return putsInFlight;
          });
    }
    cluster.delete(root);
    LogStats a = at[0];
    LogStats b = at[1];
    return new EngineRun(loop, new LogStats(b.batches() - a.batches(), b.records() - a.records(),
        b.bytes() - a.bytes(), b.syncs() - a.syncs(), b.rolls() - a.rolls(), b.retries() - a.retries()));
  }

  private TimedLoop.Result baselineRun(byte[] frame, double recordsPerBatch, boolean profiled) throws Exception {
    String root = "/write/baseline-" + (++runs);
    BenchMain.gc();
    TimedLoop.Result r;
    StackSampler profile = profiled ? baselineProfile : null;
    try (HflushBaseline b = new HflushBaseline(cluster.fs(), new Path(cluster.uri(root)), LogConfig.from(config),
        frame, recordsPerBatch, baselineRolls)) {
      r = new TimedLoop("baseline-writer", 1, runs)
          .warmup(warmup)
          .window(window)
          .around(() -> start(profile), () -> stop(profile))
          .run((thread, rng) -> b.writeBatch());
    }
    cluster.delete(root);
    return r;
  }

  private static void start(StackSampler s) {
    if (s != null) {
      s.start();
    }
  }

  private static void stop(StackSampler s) {
    if (s != null) {
      s.stop();
    }
  }
}
