package org.logbase.bench.compaction;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.logbase.bench.engine.Args;
import org.logbase.bench.engine.BenchMain;
import org.logbase.bench.engine.Engines;
import org.logbase.bench.engine.Loader;
import org.logbase.bench.engine.Report;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.compaction.CompactionReport;
import org.logbase.compaction.TabletCompaction;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.SortedSegments;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * How fast a compaction reads its input: one storage engine on an in-process one-DataNode
 * MiniDFSCluster, {@code --rows} rows each written {@code --versions} times (one pass over all rows
 * per version, keys scattered, 1 KiB incompressible values, as {@link CompactionBenchmark} writes
 * them), then one compaction with nothing else running, unthrottled, record and block caches off:
 * versions read per second, log bytes per second, and the compacting thread's CPU. Retention 0, so
 * that only each row's newest version survives. Checks afterwards that random rows read back as
 * their newest version.
 */
public final class CompactionRateBenchmark {
  private static final String VALUE = "v";

  private CompactionRateBenchmark() {}

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    int rows = a.intValue("rows", 20_000);
    int versions = a.intValue("versions", 5);
    int valueBytes = a.intValue("value-bytes", 1024);
    int writers = a.intValue("load-writers", 32);
    Config config = Engines.withoutAutomaticCheckpoints(Config.empty()
        .with(RecordCaches.POLICY, "none")
        .with(SortedSegments.BLOCK_CACHE_BYTES, 0)
        .with(TabletCompaction.RETENTION_MS, 0)
        .with(TabletCompaction.THROUGHPUT, 0))
        .withAll(Engines.parseConfig(a.string("engine-config", "")));
    BenchMain.run("CompactionRateBenchmark", a, cluster -> {
      CompactionRows values = new CompactionRows(valueBytes);
      TableSchema schema = new TableSchema("data", 21, List.of(new ColumnGroup(0, "g", List.of(VALUE),
          StoragePolicy.DEFAULT)));
      TabletDescriptor data = new TabletDescriptor(schema, 0, null, null);
      Report.heading(String.format(Locale.ROOT, "CompactionRateBenchmark: %,d rows x %d versions of %d-byte values",
          rows, versions, valueBytes));
      System.out.printf("engine config %s%n", config.asMap());
      try (StorageEngine engine = Engines.open(cluster, "/compaction-rate", config, true, List.of(data));
          TxnManager txns = TxnManager.standalone(engine)) {
        Tablet t = engine.tablet(data.id());
        for (int v = 0; v < versions; v++) {
          int version = v;
          double rate = Loader.load(txns, t, CompactionRows::key, r -> Map.of(VALUE, values.value(r, version)), 0,
              rows, writers);
          System.out.printf("version %d of %,d rows written at %,.0f rows/s%n", v, rows, rate);
        }
        System.out.printf("log: %,d bytes%n", engine.logStats().bytes());
        BenchMain.gc();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        CompactionReport r = engine.compact(data.id());
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
        System.out.printf("compaction: %,d versions (%,d bytes) in, %,d out, %.2f s: %,.0f versions/s, %.1f MB/s;"
            + " compacting thread %.2f s of CPU%n", r.versionsIn(), r.bytesIn(), r.versionsOut(), seconds,
            r.versionsIn() / seconds, r.bytesIn() / seconds / 1e6, cpu);
        Report.result("compaction-rate", "versions", r.versionsIn(), "seconds", seconds, "versionsPerSecond",
            r.versionsIn() / seconds, "mbPerSecond", r.bytesIn() / seconds / 1e6, "cpuSeconds", cpu);
        verify(engine.tablet(data.id()), values, rows, versions);
      }
    });
  }

  private static void verify(Tablet t, CompactionRows values, int rows, int versions) throws Exception {
    SplittableRandom rng = new SplittableRandom(7);
    for (int i = 0; i < 500; i++) {
      int r = rng.nextInt(rows);
      Row row = t.get(CompactionRows.key(r), null, HybridTimestamp.LATEST);
      if (row == null || !Arrays.equals(row.value(VALUE), values.value(r, versions - 1))) {
        throw new IllegalStateException("row " + r + " does not read back as its newest version");
      }
    }
    System.out.println("verified 500 random rows after compaction");
  }
}
