package org.logbase.bench.engine;

import java.util.List;
import java.util.SplittableRandom;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.log.LogStats;
import org.logbase.recovery.RecoveryReport;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.Tablet;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * Recovery time: a ~1 GB log with a checkpoint taken at ~95% of it, opened with the checkpoint
 * (load the index, replay the last ~5%) versus with a full replay of the log. Ratio = full replay
 * time / checkpoint recovery time. Every open is checked by reading a sample of rows, some from the
 * tail written after the checkpoint.
 */
public final class RecoveryBenchmark {
  private static final String ROOT = "/recovery";

  private final BenchCluster cluster;
  private final KvRows kv;
  private final Config config;
  private final int rows;
  private final int checkpointRow;
  private final int verify;
  private final StackSampler replayProfile;

  /** One timed open. */
  private record Open(boolean checkpoints, double wallMillis, RecoveryReport report) {}

  private RecoveryBenchmark(BenchCluster cluster, KvRows kv, Config config, int rows, int checkpointRow, int verify,
      boolean profile) {
    this.cluster = cluster;
    this.kv = kv;
    this.config = config;
    this.rows = rows;
    this.checkpointRow = checkpointRow;
    this.verify = verify;
    // Recovery runs on the thread that opens the engine.
    this.replayProfile = profile ? new StackSampler(Thread.currentThread().getName(), 5) : null;
  }

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    int rows = a.intValue("rows", 1_000_000);
    int valueBytes = a.intValue("value-bytes", 1024);
    int loadWriters = a.intValue("load-writers", 64);
    double checkpointAt = a.doubleValue("checkpoint-at", 0.95);
    int opens = a.intValue("opens", 2);
    int warmupOpens = a.intValue("warmup-opens", 1);
    int verify = a.intValue("verify", 1000);
    double target = a.doubleValue("target", 5);
    boolean profile = a.bool("profile", false);
    BenchMain.run("RecoveryBenchmark", a, cluster -> {
      // No record cache: it plays no part in recovery and would only take heap from the indexes.
      Config config = Engines.withoutAutomaticCheckpoints(Config.empty().with(RecordCaches.POLICY, "none"));
      RecoveryBenchmark b = new RecoveryBenchmark(cluster, new KvRows(valueBytes), config, rows,
          (int) Math.round(rows * checkpointAt), verify, profile);
      try {
        b.load(loadWriters);
        b.measure(warmupOpens, opens, target);
      } finally {
        cluster.delete(ROOT);
      }
    });
  }

  /** Writes rows [0, checkpointRow), checkpoints, writes the rest, closes. */
  private void load(int writers) throws Exception {
    Report.heading(String.format("RecoveryBenchmark: %,d rows of %d bytes, checkpoint after row %,d, then %,d more",
        rows, kv.valueBytes(), checkpointRow, rows - checkpointRow));
    long t0 = System.nanoTime();
    try (StorageEngine engine = Engines.open(cluster, ROOT, config, true);
        TxnManager txns = TxnManager.standalone(engine)) {
      Tablet tablet = Engines.kv(engine);
      System.out.printf("loading with %d writers...%n", writers);
      Loader.load(txns, tablet, kv, 0, checkpointRow, writers);
      long c0 = System.nanoTime();
      List<CheckpointEdit> checkpoints = engine.checkpoint();
      System.out.printf("checkpoint in %d ms: %d tablets, %d index entries%n", (System.nanoTime() - c0) / 1_000_000,
          checkpoints.size(), checkpoints.stream().flatMap(c -> c.getGroupsList().stream()).mapToLong(g -> g.getEntries()).sum());
      Loader.load(txns, tablet, kv, checkpointRow, rows, writers);
      LogStats s = engine.logStats();
      double secs = (System.nanoTime() - t0) / 1e9;
      System.out.printf("wrote %,d records, %.2f GB of log in %d segments, in %.0f s (%,.0f rows/s, %.1f per flush)%n",
          s.records(), s.bytes() / 1e9, s.rolls() + 1, secs, rows / secs, s.recordsPerBatch());
    }
  }

  private void measure(int warmupOpens, int opens, double target) throws Exception {
    // Both paths get compiled before anything counts: a cold first full replay would flatter the ratio.
    for (int i = 0; i < warmupOpens; i++) {
      for (boolean checkpoints : new boolean[] {true, false}) {
        Open w = open(checkpoints, -1 - i);
        System.out.printf("warm-up open %s (not counted): %.0f ms%n", checkpoints ? "with checkpoint" : "full replay",
            w.wallMillis());
      }
    }
    Sample withCheckpoint = new Sample();
    Sample fullReplay = new Sample();
    Report table = new Report("open", "mode", "wall ms", "ckpt load ms", "replay ms", "ckpts", "ckpt entries",
        "replay from", "records replayed", "MB replayed", "applied", "damage", "problems");
    for (int i = 1; i <= opens; i++) {
      for (boolean checkpoints : new boolean[] {true, false}) {
        Open o = open(checkpoints, i);
        (checkpoints ? withCheckpoint : fullReplay).add(o.wallMillis());
        RecoveryReport r = o.report();
        table.row(i, checkpoints ? "checkpoint" : "full replay", Math.round(o.wallMillis()), r.checkpointMillis(),
            r.replayMillis(), r.checkpointsLoaded(), r.checkpointEntries(),
            "seg " + r.replayFrom().segment() + " @" + r.replayFrom().offset(), r.recordsReplayed(),
            Math.round(r.bytesReplayed() / 1e6), r.applied(), r.damage().size(), r.problems().size());
        System.out.printf("  open %d %s: %.0f ms (%s)%n", i, checkpoints ? "with checkpoint" : "full replay",
            o.wallMillis(), r);
      }
    }
    double ratio = fullReplay.median() / withCheckpoint.median();
    System.out.println();
    table.print();
    System.out.println();
    new Report("", "median", "best")
        .row("checkpoint recovery ms", withCheckpoint.median(), withCheckpoint.min())
        .row("full replay ms", fullReplay.median(), fullReplay.min())
        .row("ratio full/checkpoint", ratio, fullReplay.min() / withCheckpoint.min())
        .print();
    System.out.println("ratio of medians " + Report.num(ratio) + ": " + Report.verdict(ratio, target));
    if (replayProfile != null) {
      replayProfile.print("timed full replays", 15);
    }
    // Times, so here ratio = baseline / engine (higher is better, as for the throughput benchmarks).
    Report.result("engine.recovery", "unit", "ms", "rows", rows, "engine", withCheckpoint.median(),
        "baseline", fullReplay.median(), "ratio", ratio, "target", target, "opens", withCheckpoint.size());
  }

  /** Opens the engine, times the open, checks the rows and the report, closes it. */
  private Open open(boolean checkpoints, int seed) throws Exception {
    BenchMain.gc();
    boolean profiled = replayProfile != null && !checkpoints && seed > 0;
    if (profiled) {
      replayProfile.start();
    }
    long t0 = System.nanoTime();
    try (StorageEngine engine = Engines.open(cluster, ROOT, config, checkpoints)) {
      double wall = (System.nanoTime() - t0) / 1e6;
      if (profiled) {
        replayProfile.stop();
      }
      RecoveryReport r = engine.recoveryReport();
      check(checkpoints, r);
      verifyRows(Engines.kv(engine), seed);
      return new Open(checkpoints, wall, r);
    }
  }

  private void check(boolean checkpoints, RecoveryReport r) {
    if (checkpoints && r.checkpointsLoaded() != 1) {
      throw new IllegalStateException("recovery with checkpoints loaded " + r.checkpointsLoaded()
          + " checkpoints, expected 1: " + r);
    }
    if (!checkpoints && (r.checkpointsLoaded() != 0 || r.recordsReplayed() < rows)) {
      throw new IllegalStateException("a full replay should replay every record without checkpoints: " + r);
    }
    if (!r.damage().isEmpty() || !r.problems().isEmpty()) {
      throw new IllegalStateException("recovery met damage or unusable checkpoints: " + r.damage() + r.problems());
    }
  }

  /** Reads {@code verify} random rows, a tenth of them from the tail written after the checkpoint. */
  private void verifyRows(Tablet tablet, long seed) throws Exception {
    SplittableRandom rng = new SplittableRandom(seed);
    int tail = Math.max(1, verify / 10);
    for (int i = 0; i < verify; i++) {
      long row = i < tail ? checkpointRow + rng.nextInt(rows - checkpointRow) : rng.nextInt(rows);
      kv.check(row, tablet.get(KvRows.key(row), null, HybridTimestamp.LATEST));
    }
    // The last row written, the one right after the checkpoint and the first.
    for (long row : new long[] {rows - 1, checkpointRow, 0}) {
      kv.check(row, tablet.get(KvRows.key(row), null, HybridTimestamp.LATEST));
    }
  }
}
