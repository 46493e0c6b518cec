package org.logbase.bench.compaction;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import org.logbase.bench.engine.Args;
import org.logbase.bench.engine.BenchMain;
import org.logbase.bench.engine.Engines;
import org.logbase.bench.engine.KvRows;
import org.logbase.bench.engine.Report;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.compaction.CompactionReport;
import org.logbase.log.Durability;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.SortedSegments;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;
import org.logbase.txn.WriteBatch;

/**
 * Heap per row (issue #10: "heap per row for 10 million rows of 16-byte keys, all compacted: at most
 * 8 bytes; the dense index is about 41"): one storage engine, {@code --rows} rows of 16-byte keys
 * (scattered over the key space) and 8-byte values written through the server's write path in
 * batches, then the retained heap after full GCs with every row in the dense in-memory index,
 * then again after one compaction moved them all to a sorted segment; each less the heap of the
 * engine open and empty, divided by the rows. Record and block caches are off (they are bounded by
 * their settings, not by the rows). Prints the largest classes of the live heap after compaction.
 */
public final class HeapPerRowBenchmark {
  private static final String VALUE = "v";
  private static final TabletDescriptor KV = TestTables.whole(TestTables.KV);

  private HeapPerRowBenchmark() {}

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    long rows = a.longValue("rows", 10_000_000);
    int batch = a.intValue("batch", 1000);
    int writers = a.intValue("writers", 4);
    int histogram = a.intValue("histogram-lines", 15);
    Config config = Engines.withoutAutomaticCheckpoints(Config.empty()
        .with(RecordCaches.POLICY, "none")
        .with(SortedSegments.BLOCK_CACHE_BYTES, 0))
        .withAll(Engines.parseConfig(a.string("engine-config", "")));
    BenchMain.run("HeapPerRowBenchmark", a, cluster -> {
      Report.heading(String.format(Locale.ROOT, "HeapPerRowBenchmark: %,d rows of %d-byte keys and 8-byte values,"
          + " max heap %,d MB", rows, KvRows.key(0).length, Runtime.getRuntime().maxMemory() >> 20));
      System.out.printf("engine config %s%n", config.asMap());
      try (StorageEngine engine = Engines.open(cluster, "/heap", config, true, List.of(KV));
          TxnManager txns = TxnManager.standalone(engine)) {
        long empty = retainedHeap();
        System.out.printf("engine open, tablet empty: %,d bytes of heap%n", empty);
        load(txns, engine.tablet(KV.id()), rows, batch, writers);
        long dense = retainedHeap();
        GroupIndex g = engine.registry().snapshot().get(KV.id()).groups()[0];
        System.out.printf("all rows in the in-memory index (%,d entries): %,d bytes of heap, %.1f per row%n",
            g.index().size(), dense, (dense - empty) / (double) rows);
        long t0 = System.nanoTime();
        CompactionReport r = engine.compact(KV.id());
        System.out.printf("compacted in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, r);
        g = engine.registry().snapshot().get(KV.id()).groups()[0];
        long compacted = retainedHeap();
        System.out.printf("after compaction (index %,d entries, %d sorted segments, %,d bytes, %,d blocks): %,d bytes"
            + " of heap, %.1f per row%n", g.index().size(), g.segments().size(),
            g.segments().isEmpty() ? 0 : g.segments().get(0).reader().stats().fileBytes(),
            g.segments().isEmpty() ? 0 : g.segments().get(0).reader().blocks().size(), compacted,
            (compacted - empty) / (double) rows);
        verify(engine.tablet(KV.id()), rows);
        printHistogram(histogram);
        double before = (dense - empty) / (double) rows;
        double after = (compacted - empty) / (double) rows;
        Report.result("heap-per-row", "rows", rows, "denseBytesPerRow", before, "compactedBytesPerRow", after,
            "ratio", after / before, "goalMet", after <= 8);
        System.out.printf("heap per row: %.2f bytes with the dense index, %.2f after compaction (%.3f of it);"
            + " goal: at most 8 after compaction: %s%n", before, after, after / before, after <= 8 ? "met" : "missed");
      }
    });
  }

  /** Rows [0, rows) in batches through the write path (BatchMutate's), from several threads. */
  private static void load(TxnManager txns, Tablet t, long rows, int batch, int writers) throws Exception {
    AtomicLong next = new AtomicLong();
    long t0 = System.nanoTime();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Thread th = new Thread(() -> {
        try {
          for (long from = next.getAndAdd(batch); from < rows; from = next.getAndAdd(batch)) {
            WriteBatch b = new WriteBatch();
            for (long row = from; row < Math.min(rows, from + batch); row++) {
              b.put(t, KvRows.key(row), Map.of(VALUE, value(row)));
            }
            txns.write(b, Durability.HFLUSH).join();
            if ((from / batch) % Math.max(1, rows / batch / 10) == 0) {
              System.out.printf("  %,d rows written (%.0f rows/s)%n", from, from / ((System.nanoTime() - t0) / 1e9));
            }
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "heap-loader-" + w);
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("loading failed: " + failures.get(0), failures.get(0));
    }
    System.out.printf("%,d rows written in %.1f s%n", rows, (System.nanoTime() - t0) / 1e9);
  }

  private static byte[] value(long row) {
    return ByteBuffer.allocate(8).putLong(row).array();
  }

  private static void verify(Tablet t, long rows) throws Exception {
    SplittableRandom rng = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      long row = rng.nextLong(rows);
      Row got = t.get(KvRows.key(row), null, HybridTimestamp.LATEST);
      if (got == null || ByteBuffer.wrap(got.value(VALUE)).getLong() != row) {
        throw new IllegalStateException("row " + row + " does not read back after compaction");
      }
    }
    System.out.println("verified 1000 random rows after compaction");
  }

  /** Heap in use after full collections (three, until it stops shrinking by more than 1 %). */
  private static long retainedHeap() {
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long now = mx.getHeapMemoryUsage().getUsed();
      if (i >= 2 && now > used * 0.99) {
        return Math.min(used, now);
      }
      used = Math.min(used, now);
    }
    return used;
  }

  /** The first lines of the live heap's class histogram (as {@code jmap -histo:live} prints it). */
  private static void printHistogram(int lines) throws Exception {
    String h = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    String[] all = h.split("\n");
    System.out.println("live heap after compaction, largest classes:");
    for (int i = 0; i < Math.min(all.length, lines + 3); i++) {
      System.out.println("  " + all[i]);
    }
    System.out.println("  " + all[all.length - 1]);
  }
}
