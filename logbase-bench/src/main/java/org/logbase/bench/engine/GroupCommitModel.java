package org.logbase.bench.engine;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Threads;
import org.logbase.log.LogConfig;
import org.logbase.log.SegmentFiles;

/**
 * Diagnostic for {@link WriteThroughputBenchmark} (not run by bin/bench-engine.sh): group commit
 * with nothing of the engine in it (no codec, index, cache, segment rolls), so the write gap can be
 * split into what the hand-off between blocked writers and one log thread costs by itself and what
 * the engine adds. Each mode runs against the hflush baseline at the batch size it achieved.
 *
 * <ul>
 *   <li>{@code inline}: the engine's first design: the log thread drains the queue, writes, hflushes
 *       and completes every writer's future itself before taking the next batch.
 *   <li>{@code acker}: the engine's design since: the log thread writes and hflushes; a second
 *       thread completes the futures.
 *   <li>{@code pipelined}: the log thread only writes; a second thread hflushes (covering all
 *       batches written so far) and completes, so the next batch is written while an ack is awaited.
 * </ul>
 */
public final class GroupCommitModel {
  private record Request(byte[] frame, CompletableFuture<Void> done) {}

  private final BenchCluster cluster;
  private final byte[] frame;
  private final int writers;
  private final Duration warmup;
  private final Duration window;

  private GroupCommitModel(BenchCluster cluster, byte[] frame, int writers, Duration warmup, Duration window) {
    this.cluster = cluster;
    this.frame = frame;
    this.writers = writers;
    this.warmup = warmup;
    this.window = window;
  }

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    int writers = a.intValue("writers", 16);
    String modes = a.string("modes", "inline,acker,pipelined");
    int rounds = a.intValue("trials", 3);
    Duration warmup = Duration.ofSeconds(a.longValue("warmup-seconds", 3));
    Duration window = Duration.ofSeconds(a.longValue("seconds", 8));
    BenchMain.run("GroupCommitModel", a, cluster -> {
      GroupCommitModel m = new GroupCommitModel(cluster, new KvRows(1024).sampleFrame(), writers, warmup, window);
      Report table = new Report("trial", "mode", "model rec/s", "recs/flush", "cpu", "baseline rec/s", "cpu", "ratio");
      for (int t = 1; t <= rounds; t++) {
        for (String mode : modes.split(",")) {
          m.round(t, mode.trim(), table);
        }
      }
      System.out.println();
      table.print();
    });
  }

  private void round(int trial, String mode, Report table) throws Exception {
    Path file = cluster.path("/model/" + mode + "-" + trial);
    AtomicLong batches = new AtomicLong();
    AtomicLong records = new AtomicLong();
    long[] at = new long[4];
    TimedLoop.Result model;
    try (Pipeline p = new Pipeline(mode, cluster.fs().create(file, true, 256 << 10, (short) 1, 4L << 30),
        batches, records)) {
      BenchMain.gc();
      model = new TimedLoop("model-writer", writers, trial)
          .warmup(warmup)
          .window(window)
          .around(() -> {
            at[0] = batches.get();
            at[1] = records.get();
          }, () -> {
            at[2] = batches.get();
            at[3] = records.get();
          })
          .run((thread, rng) -> {
            Request r = new Request(frame, new CompletableFuture<>());
            p.queue.add(r);
            r.done().get();
            return 1;
          });
    }
    cluster.fs().delete(file, false);
    double perFlush = (double) (at[3] - at[1]) / (at[2] - at[0]);
    Path dir = cluster.path("/model/baseline-" + mode + "-" + trial);
    TimedLoop.Result base;
    try (HflushBaseline b = new HflushBaseline(cluster.fs(), dir, LogConfig.DEFAULT, frame, perFlush, false)) {
      BenchMain.gc();
      base = new TimedLoop("baseline-writer", 1, trial).warmup(warmup).window(window).run((thread, rng) -> b.writeBatch());
    }
    cluster.fs().delete(dir, true);
    table.row(trial, mode, model.perSecond(), perFlush, model.cpuCores(), base.perSecond(), base.cpuCores(),
        model.perSecond() / base.perSecond());
    System.out.printf("  %s: %s records/s at %.1f per flush; baseline %s%n", mode, Report.num(model.perSecond()),
        perFlush, Report.num(base.perSecond()));
  }

  /** The log thread and, except inline, the helper thread of one mode. */
  private static final class Pipeline implements AutoCloseable {
    final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<List<Request>> handoff = new LinkedBlockingQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final FSDataOutputStream out;
    private final String mode;
    private final AtomicLong batches;
    private final AtomicLong records;
    private final Thread logThread;
    private final Thread helper;

    Pipeline(String mode, FSDataOutputStream out, AtomicLong batches, AtomicLong records) throws IOException {
      if (!List.of("inline", "acker", "pipelined").contains(mode)) {
        throw new IllegalArgumentException("unknown mode " + mode);
      }
      this.mode = mode;
      this.out = out;
      this.batches = batches;
      this.records = records;
      out.write(SegmentFiles.header(1));
      out.hflush();
      logThread = start("model-log", this::logLoop);
      helper = start("model-helper", this::helperLoop);
    }

    private Thread start(String name, IoLoop loop) {
      Thread t = Threads.newDaemon(name, () -> {
        try {
          loop.run();
        } catch (IOException | InterruptedException e) {
          System.err.println(name + " failed: " + e);
        }
      });
      t.start();
      return t;
    }

    private interface IoLoop {
      void run() throws IOException, InterruptedException;
    }

    private void logLoop() throws IOException, InterruptedException {
      while (!stop.get()) {
        Request first = queue.poll(50, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        List<Request> batch = new ArrayList<>();
        batch.add(first);
        queue.drainTo(batch);
        for (Request r : batch) {
          out.write(r.frame());
        }
        batches.incrementAndGet();
        records.addAndGet(batch.size());
        if (mode.equals("pipelined")) {
          handoff.add(batch);
          continue;
        }
        out.hflush();
        if (mode.equals("acker")) {
          handoff.add(batch);
        } else {
          batch.forEach(r -> r.done().complete(null));
        }
      }
    }

    private void helperLoop() throws IOException, InterruptedException {
      while (!stop.get()) {
        List<Request> first = handoff.poll(50, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        List<List<Request>> ready = new ArrayList<>();
        ready.add(first);
        handoff.drainTo(ready);
        if (mode.equals("pipelined")) {
          out.hflush(); // covers every batch written before it was handed over
        }
        ready.forEach(b -> b.forEach(r -> r.done().complete(null)));
      }
    }

    @Override
    public void close() throws IOException {
      stop.set(true);
      try {
        logThread.join();
        helper.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      out.close();
    }
  }
}
