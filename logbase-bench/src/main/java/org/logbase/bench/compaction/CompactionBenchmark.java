package org.logbase.bench.compaction;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.bench.engine.Args;
import org.logbase.bench.engine.BenchCluster;
import org.logbase.bench.engine.BenchMain;
import org.logbase.bench.engine.Engines;
import org.logbase.bench.engine.Loader;
import org.logbase.bench.engine.Report;
import org.logbase.bench.engine.Sample;
import org.logbase.bench.engine.TimedLoop;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.Threads;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.common.schema.TableSchema;
import org.logbase.compaction.CompactionReport;
import org.logbase.compaction.TabletCompaction;
import org.logbase.log.Durability;
import org.logbase.log.LogStats;
import org.logbase.recovery.LogCollector;
import org.logbase.sorted.BlockInfo;
import org.logbase.sorted.SegmentStats;
import org.logbase.sorted.SortedSegmentReader;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.RowScanner;
import org.logbase.tablet.SortedSegments;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * Compaction (issue #10), one storage engine on an in-process one-DataNode MiniDFSCluster, writes
 * through {@code TxnManager.standalone}, 1 KiB values, every ratio against a baseline measured in the
 * same run:
 *
 * <ol>
 *   <li>range scans of 10,000 rows from random start keys ({@code Tablet.scan} with a limit) before
 *       compaction (every row written several times, versions scattered over the log, record cache
 *       off) and after it (block cache off): rows/s after / before;
 *   <li>a full scan of the compacted tablet (pages of {@code --page-rows}, 500, through one {@link
 *       RowScanner}, as a server's scan call reads its batches) against a raw sequential read ({@code FSDataInputStream})
 *       of the same bytes of its sorted segment: bytes/s engine / raw, passes of the two in turn, the
 *       median of the trials' ratios. The raw read verifies HDFS's
 *       checksums, as any client's read does by default; the engine's scans check each block's own
 *       CRC32C instead ({@code ScanFileSystem}), and the same raw read without HDFS's checksums is
 *       printed beside it as a diagnosis;
 *   <li>the tablet's log before compaction and its sorted segment after, each divided by the live
 *       data's encoded size (key + value bytes of the newest versions); and the compression ratio
 *       (raw / stored bytes of the data blocks, from the segment's footer) of a column of generated
 *       prose with no compression, LZ4 and Zstd;
 *   <li>durable write throughput (puts with HFLUSH from several threads, to a second tablet of the
 *       same engine and log) while the compaction runs against while it is held, in pairs of
 *       neighbouring windows, and the p99 latency of gets of the compacting tablet's rows the same way;
 *   <li>uncached random gets of compacted rows (block cache and record cache off) against raw
 *       positioned reads of the block that holds the same row, from the same segment file, the
 *       median of alternating trials' ratios.
 * </ol>
 *
 * <p>Compaction keeps every version above its GC horizon, which trails the clock by {@code
 * compaction.retention.ms}; the benchmark sets it to 0 so that only the newest version of each row
 * survives, as it would once the retention window has passed.
 */
public final class CompactionBenchmark {
  private static final String ROOT = "/compaction";
  private static final String VALUE = "v";
  private static final String TEXT = "text";
  /** Above every key {@link CompactionRows#key} makes ("row" + digits). */
  private static final byte[] END = {'r', 'o', 'x'};
  private static final TabletDescriptor TRAFFIC = tablet("traffic", 22, VALUE, BlockCompression.LZ4);
  private static final List<TabletDescriptor> PROSE = List.of(
      tablet("prose_none", 23, TEXT, BlockCompression.NONE),
      tablet("prose_lz4", 24, TEXT, BlockCompression.LZ4),
      tablet("prose_zstd", 25, TEXT, BlockCompression.ZSTD));

  private final BenchCluster cluster;
  private final Settings s;
  private final CompactionRows rows;
  private final TabletDescriptor data;
  private final Report summary = new Report("measure", "result", "baseline (same run)", "ratio", "goal", "met");
  private final List<Runnable> results = new ArrayList<>();
  /** The next row the write windows put into the traffic tablet. */
  private final AtomicLong trafficRows = new AtomicLong();
  /** The engine's file system, through which section 4 holds the compaction: set when the engine opens. */
  private PausableFileSystem pausable;

  /** The flags. */
  private record Settings(int rows, int versions, int valueBytes, int loadWriters, BlockCompression dataCompression,
      int scanRows, int scansBefore, int scansAfter, int pageRows, double fullScanSeconds, int fullScanTrials,
      int coldScanTrials, int writers,
      int latencyGetThreads, Duration warmup, Duration window, int baselineWindows, List<Integer> getThreads,
      int getTrials, Duration getWindow, int proseRows, int verify, Config config) {}

  private CompactionBenchmark(BenchCluster cluster, Settings s) {
    this.cluster = cluster;
    this.s = s;
    this.rows = new CompactionRows(s.valueBytes());
    this.data = tablet("data", 21, VALUE, s.dataCompression());
  }

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    Config config = Engines.withoutAutomaticCheckpoints(Config.empty()
        .with(RecordCaches.POLICY, "none")
        .with(SortedSegments.BLOCK_CACHE_BYTES, 0)
        .with(TabletCompaction.RETENTION_MS, 0))
        .withAll(Engines.parseConfig(a.string("engine-config", "")));
    List<Integer> getThreads = new ArrayList<>();
    for (String t : a.string("get-threads", "1,4").split(",")) {
      getThreads.add(Integer.parseInt(t.trim()));
    }
    Settings s = new Settings(
        a.intValue("rows", 40_000),
        a.intValue("versions", 5),
        a.intValue("value-bytes", 1024),
        a.intValue("load-writers", 32),
        BlockCompression.parse(a.string("data-compression", "lz4")),
        a.intValue("scan-rows", 10_000),
        a.intValue("scans-before", 3),
        a.intValue("scans-after", 10),
        a.intValue("page-rows", 500),
        a.doubleValue("full-scan-seconds", 3),
        a.intValue("full-scan-trials", 3),
        a.intValue("cold-scan-trials", 9),
        a.intValue("writers", 16),
        a.intValue("latency-get-threads", 2),
        Duration.ofSeconds(a.longValue("warmup-seconds", 1)),
        Duration.ofSeconds(a.longValue("window-seconds", 5)),
        a.intValue("baseline-windows", 2),
        getThreads,
        a.intValue("get-trials", 3),
        Duration.ofSeconds(a.longValue("get-seconds", 4)),
        a.intValue("prose-rows", 20_000),
        a.intValue("verify", 500),
        config);
    if (s.rows() < 2 * s.scanRows() || s.versions() < 1) {
      throw new IllegalArgumentException("--rows must be at least twice --scan-rows, --versions at least 1");
    }
    BenchMain.run("CompactionBenchmark", a, cluster -> new CompactionBenchmark(cluster, s).run());
  }

  /** Wraps the engine's file system (once: the engine opens one). */
  private FileSystem pausable(FileSystem fs) {
    if (pausable != null) {
      throw new IllegalStateException("the engine opened a second file system");
    }
    pausable = new PausableFileSystem(fs);
    return pausable;
  }

  private static TabletDescriptor tablet(String table, int id, String column, BlockCompression compression) {
    StoragePolicy policy = StoragePolicy.DEFAULT.withCompression(compression);
    TableSchema schema = new TableSchema(table, id, List.of(new ColumnGroup(0, "g", List.of(column), policy)));
    return new TabletDescriptor(schema, 0, null, null);
  }

  private void run() throws Exception {
    Report.heading(String.format(Locale.ROOT, "CompactionBenchmark: %,d rows x %d versions of %d-byte values (%s),"
        + " %,d-row range scans; record cache off, block cache off", s.rows(), s.versions(), s.valueBytes(),
        s.dataCompression(), s.scanRows()));
    System.out.printf("engine config %s%n", s.config().asMap());
    List<TabletDescriptor> tablets = new ArrayList<>(List.of(data, TRAFFIC));
    tablets.addAll(PROSE);
    try (StorageEngine engine = Engines.open(cluster, ROOT, s.config(), true, tablets, this::pausable);
        TxnManager txns = TxnManager.standalone(engine)) {
      long live = (long) s.rows() * (CompactionRows.KEY_BYTES + s.valueBytes());
      long logBytes = load(engine, txns);
      byte[][] keys = sortedKeys();
      verify(engine, s.verify(), 11);

      Report.heading("1. range scans before compaction (record cache off: every row read from the log in HDFS)");
      Sample scansBefore = rangeScans(engine, keys, s.scansBefore());

      Report.heading("4. writes to another tablet and gets of this one, no compaction running");
      System.out.println("warm-up round (not counted):");
      writeWindow(engine, txns, "warm-up");
      getWindow(engine, "warm-up");
      Interference none = new Interference();
      for (int i = 0; i < s.baselineWindows(); i++) {
        none.writes.add(writeWindow(engine, txns, "none").perSecond());
        none.addGets(getWindow(engine, "none"));
      }

      Report.heading("4. the same while the tablet is compacted");
      CompactionReport report = compactUnderLoad(engine, txns, none);
      verify(engine, s.verify(), 12);

      GroupIndex group = engine.registry().snapshot().get(data.id()).groups()[0];
      if (group.segments().size() != 1 || group.index().size() != 0) {
        throw new IllegalStateException("expected one sorted segment and an empty index after compaction, got "
            + group.segments().size() + " segments and " + group.index().size() + " index entries");
      }
      SortedSegmentReader segment = group.segments().get(0).reader();
      sizes(logBytes, live, report, segment.stats());
      logAfterCollection(engine, logBytes, live, report);
      // The other tablet's in-memory index (every write of section 4: about 3.9 GB of log at 200,000
      // rows, never compacted here) would fill much of the heap while sections 1, 2 and 5 measure
      // reads of this one, whose scans allocate a copy of every value: closed, without a checkpoint
      // (nothing reads it again).
      engine.closeTablet(TRAFFIC.id(), false);

      Report.heading("1. range scans after compaction (block cache off: every block read from HDFS)");
      Sample scansAfter = rangeScans(engine, keys, s.scansAfter());
      double scanRatio = scansAfter.median() / scansBefore.median();
      System.out.printf("range scans: %s rows/s after, %s before: %.1fx%n", Report.num(scansAfter.median()),
          Report.num(scansBefore.median()), scanRatio);
      goal("1. range scan of " + s.scanRows() + " rows, after / before compaction (rows/s)", scansAfter.median(),
          scansBefore.median(), scanRatio, ">= 5", scanRatio >= 5);
      results.add(() -> Report.result("compaction.range.scan", "unit", "rows/s", "rows", s.rows(), "versions",
          s.versions(), "scan.rows", s.scanRows(), "after", scansAfter.median(), "before", scansBefore.median(), "ratio",
          scanRatio, "target", 5.0));

      fullScan(engine, segment);
      randomGets(engine, segment, keys);
      prose(engine, txns);

      Report.heading("summary (" + s.rows() + " rows x " + s.versions() + " versions, " + s.valueBytes() + "-byte values)");
      summary.print();
      results.forEach(Runnable::run);
    }
    cluster.delete(ROOT);
  }

  // ------------------------------------------------------------------ data

  /** Writes every row {@code versions} times, one pass over all rows per version; returns the log's bytes. */
  private long load(StorageEngine engine, TxnManager txns) throws Exception {
    Tablet t = engine.tablet(data.id());
    for (int v = 0; v < s.versions(); v++) {
      int version = v;
      double rate = Loader.load(txns, t, CompactionRows::key, r -> Map.of(VALUE, rows.value(r, version)), 0,
          s.rows(), s.loadWriters());
      System.out.printf("version %d of %,d rows written at %,.0f rows/s%n", v, s.rows(), rate);
    }
    LogStats log = engine.logStats();
    System.out.printf("log: %,d bytes written (%s); nothing but this tablet written to it%n", log.bytes(), log);
    return log.bytes();
  }

  /** Every row's key in key order. */
  private byte[][] sortedKeys() {
    byte[][] keys = new byte[s.rows()][];
    for (int r = 0; r < keys.length; r++) {
      keys[r] = CompactionRows.key(r);
    }
    Arrays.sort(keys, Arrays::compareUnsigned);
    return keys;
  }

  /** Fails loudly unless random rows read back as their newest version. */
  private void verify(StorageEngine engine, int samples, long seed) throws IOException {
    SplittableRandom rng = new SplittableRandom(seed);
    Tablet t = engine.tablet(data.id());
    for (int i = 0; i < samples; i++) {
      int r = rng.nextInt(s.rows());
      Row row = t.get(CompactionRows.key(r), null, HybridTimestamp.LATEST);
      byte[] want = rows.value(r, s.versions() - 1);
      if (row == null || !Arrays.equals(row.value(VALUE), want)) {
        throw new IllegalStateException("row " + r + " read back as "
            + (row == null ? "missing" : CompactionRows.describe(row.value(VALUE))) + ", expected its newest version");
      }
    }
    System.out.printf("verified %d random rows: each reads back as its newest version%n", samples);
  }

  // ------------------------------------------------------------------ 1. range scans

  /** One unmeasured scan, then {@code scans} measured ones from random start keys (the same sequence every call). */
  private Sample rangeScans(StorageEngine engine, byte[][] keys, int scans) throws IOException {
    BenchMain.gc();
    SplittableRandom rng = new SplittableRandom(42);
    Sample rate = new Sample();
    for (int i = 0; i <= scans; i++) {
      int start = rng.nextInt(keys.length - s.scanRows() + 1);
      long t0 = System.nanoTime();
      List<Row> got = engine.tablet(data.id()).scan(keys[start], END, null, HybridTimestamp.LATEST, s.scanRows());
      double seconds = (System.nanoTime() - t0) / 1e9;
      if (got.size() != s.scanRows() || !Arrays.equals(got.get(0).key(), keys[start])
          || !Arrays.equals(got.get(got.size() - 1).key(), keys[start + s.scanRows() - 1])) {
        throw new IllegalStateException("a scan from row " + start + " in key order returned " + got.size()
            + " rows, not the " + s.scanRows() + " expected");
      }
      System.out.printf("  scan %d%s: %,d rows in %.3f s = %s rows/s%n", i, i == 0 ? " (warm-up, not counted)" : "",
          got.size(), seconds, Report.num(got.size() / seconds));
      if (i > 0) {
        rate.add(got.size() / seconds);
      }
    }
    return rate;
  }

  // ------------------------------------------------------------------ 2. full scan

  private void fullScan(StorageEngine engine, SortedSegmentReader segment) throws Exception {
    List<BlockInfo> blocks = segment.blocks();
    long first = blocks.get(0).offset();
    BlockInfo lastBlock = blocks.get(blocks.size() - 1);
    long blockBytes = lastBlock.offset() + lastBlock.storedLength() - first;
    Report.heading(String.format(Locale.ROOT, "2. full scan of the compacted tablet vs a sequential read of its"
        + " segment's %,d bytes of data blocks (%d blocks, %s), block cache off; the engine's scans %s HDFS's"
        + " checksums", blockBytes, blocks.size(), segment.path().getName(),
        segment.scansVerifyFileSystemChecksums() ? "verify" : "skip"));
    System.out.println("heap: " + BenchMain.hugePages());
    byte[] buf = new byte[Math.max(64 << 10, blocks.stream().mapToInt(BlockInfo::storedLength).max().orElse(0))];
    FileSystem fs = cluster.fs();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] scanCpu = {0, 0}; // the scanning thread's CPU time and the passes' wall time, in ns
    Pass enginePass = () -> {
      long cpu0 = mx.getCurrentThreadCpuTime();
      long wall0 = System.nanoTime();
      checkRows(scanAll(engine));
      scanCpu[0] += mx.getCurrentThreadCpuTime() - cpu0;
      scanCpu[1] += System.nanoTime() - wall0;
    };
    // Not the measure, a diagnosis: a new scan for every page, as a server's scan call read its
    // batches before it kept one scanner open.
    Pass perPagePass = () -> checkRows(scanPageByPage(engine));
    Pass rawPass = () -> {
      long n = readSequentially(fs, segment.path(), first, blockBytes, buf);
      if (n != blockBytes) {
        throw new IllegalStateException("read " + n + " bytes of " + blockBytes);
      }
    };
    // Not the baseline, a diagnosis: the same raw read without HDFS's checksums (the DataNode sends
    // none), as the engine's scans read (each block checked with its own CRC32C instead).
    FileSystem unchecked = FileSystem.newInstance(fs.getUri(), fs.getConf());
    unchecked.setVerifyChecksum(false);
    Pass rawUncheckedPass = () -> {
      long n = readSequentially(unchecked, segment.path(), first, blockBytes, buf);
      if (n != blockBytes) {
        throw new IllegalStateException("read " + n + " bytes of " + blockBytes);
      }
    };
    // Not the baseline, a diagnosis: a positioned read per block, as gets read blocks (and as scans
    // read them before they read a segment through a stream of their own).
    Pass preadPass = () -> {
      try (FSDataInputStream in = fs.open(segment.path())) {
        for (BlockInfo b : blocks) {
          in.readFully(b.offset(), buf, 0, b.storedLength());
        }
      }
    };
    timedPasses(enginePass, 1, blockBytes); // warm-up, not counted
    timedPasses(rawPass, 1, blockBytes);
    timedPasses(rawUncheckedPass, 1, blockBytes);
    timedPasses(preadPass, 1, blockBytes);
    timedPasses(perPagePass, 1, blockBytes);
    Sample engineRate = new Sample();
    Sample rawRate = new Sample();
    Sample rawUncheckedRate = new Sample();
    Sample preadRate = new Sample();
    Sample perPageRate = new Sample();
    Sample ratios = new Sample();
    for (int t = 1; t <= s.fullScanTrials(); t++) {
      double[] er = alternatingPasses(enginePass, rawPass, s.fullScanSeconds(), blockBytes);
      double e = er[0];
      double r = er[1];
      ratios.add(e / r);
      double u = timedPasses(rawUncheckedPass, s.fullScanSeconds(), blockBytes);
      double p = timedPasses(preadPass, s.fullScanSeconds(), blockBytes);
      double q = timedPasses(perPagePass, s.fullScanSeconds(), blockBytes);
      engineRate.add(e);
      rawRate.add(r);
      rawUncheckedRate.add(u);
      preadRate.add(p);
      perPageRate.add(q);
      System.out.printf("  trial %d: engine full scan %.1f MB/s (%s rows/s), raw sequential read %.1f MB/s: %.2f;"
          + " (diagnosis: raw read without HDFS checksums %.1f MB/s; positioned reads of the blocks in order %.1f"
          + " MB/s; a new scan per page %.1f MB/s)%n", t, e / 1e6, Report.num(e / blockBytes * s.rows()), r / 1e6,
          e / r, u / 1e6, p / 1e6, q / 1e6);
    }
    unchecked.close();
    System.out.printf("the scanning thread was on a CPU for %.0f%% of the engine's passes (the rest: waiting for"
        + " the DataNode, or for blocks read ahead)%n", 100.0 * scanCpu[0] / scanCpu[1]);
    // The machine's speed drifts between and within trials (the raw read alone ranged from 1.9 to 2.6
    // GB/s between runs): each trial's engine and raw passes alternate, one pass each in turn, and the
    // ratio is the median of the trials' ratios, as the cold scan's is.
    double ratio = ratios.median();
    System.out.printf("full scan / raw read: %.2f (median of the trials' ratios; of the medians: %.2f); (diagnosis:"
        + " full scan / raw read without HDFS checksums: %.2f; positioned block reads in order / raw read: %.2f; a"
        + " new scan per page / raw read: %.2f)%n", ratio, engineRate.median() / rawRate.median(),
        engineRate.median() / rawUncheckedRate.median(), preadRate.median() / rawRate.median(),
        perPageRate.median() / rawRate.median());
    goal("2. full scan after compaction / raw sequential read of the same bytes (MB/s), page cache warm", engineRate.median() / 1e6,
        rawRate.median() / 1e6, ratio, ">= 0.7", ratio >= 0.7);
    coldFullScan(enginePass, rawPass, blockBytes);
    results.add(() -> Report.result("compaction.full.scan", "unit", "bytes/s", "bytes", blockBytes, "engine",
        engineRate.median(), "baseline", rawRate.median(), "ratio", ratio, "target", 0.7, "engine.rows.per.s",
        engineRate.median() / blockBytes * s.rows(), "raw.without.hdfs.checksums", rawUncheckedRate.median(),
        "block.preads.in.order", preadRate.median(),
        "scan.per.page", perPageRate.median(), "page.rows", s.pageRows()));
  }

  /**
   * The same full scan and raw read, one pass each per trial, each after the OS page cache was
   * dropped: both read the DataNode's block files from the disk. Needs root (skipped otherwise).
   */
  private void coldFullScan(Pass enginePass, Pass rawPass, long blockBytes) throws Exception {
    File dropCaches = new File("/proc/sys/vm/drop_caches");
    Report.heading(String.format(Locale.ROOT, "2. (cold) the same full scan and raw read, the page cache dropped"
        + " before each pass, %d alternating trials (raw first in even ones)", s.coldScanTrials()));
    if (s.coldScanTrials() == 0) {
      return;
    }
    if (!dropCaches.canWrite()) {
      System.out.println("skipped: dropping the page cache needs root");
      return;
    }
    new ProcessBuilder("sync").inheritIO().start().waitFor(); // dirty pages are not dropped
    Sample engineRate = new Sample();
    Sample rawRate = new Sample();
    Sample ratios = new Sample();
    for (int t = 1; t <= s.coldScanTrials(); t++) {
      double r = t % 2 == 0 ? coldPass(dropCaches, rawPass, blockBytes) : 0;
      double e = coldPass(dropCaches, enginePass, blockBytes);
      if (t % 2 == 1) {
        r = coldPass(dropCaches, rawPass, blockBytes);
      }
      engineRate.add(e);
      rawRate.add(r);
      ratios.add(e / r);
      System.out.printf("  trial %d: engine full scan %.1f MB/s, raw sequential read %.1f MB/s: %.2f%n", t, e / 1e6,
          r / 1e6, e / r);
    }
    // The disk's speed varies from pass to pass far more than warm reads do: the ratio is the median
    // of each trial's pair, read one right after the other.
    double ratio = ratios.median();
    System.out.printf("cold full scan / raw read: %.2f (median of the trials' ratios; of the medians: %.2f)%n", ratio,
        engineRate.median() / rawRate.median());
    goal("2. (cold) the same, page cache dropped before each pass (MB/s)", engineRate.median() / 1e6,
        rawRate.median() / 1e6, ratio, ">= 0.7", ratio >= 0.7);
    results.add(() -> Report.result("compaction.full.scan.cold", "unit", "bytes/s", "bytes", blockBytes, "engine",
        engineRate.median(), "baseline", rawRate.median(), "ratio", ratio, "target", 0.7));
  }

  private static double coldPass(File dropCaches, Pass pass, long bytes) throws Exception {
    Files.writeString(dropCaches.toPath(), "1");
    return onePass(pass, bytes);
  }

  private static double onePass(Pass pass, long bytes) throws Exception {
    BenchMain.gc();
    long t0 = System.nanoTime();
    pass.run();
    return bytes / ((System.nanoTime() - t0) / 1e9);
  }

  private void checkRows(long n) {
    if (n != s.rows()) {
      throw new IllegalStateException("a full scan returned " + n + " rows, not " + s.rows());
    }
  }

  /**
   * Scans the whole tablet in pages of {@code pageRows} rows through one scanner, as a server's scan
   * call reads its batches (500 rows by default), releasing the scanner after each page as the
   * server does once a batch is in its message (its values view the scan's blocks until then; the
   * server then copies each value once, into the message, which this does not); returns the rows.
   */
  private long scanAll(StorageEngine engine) throws IOException {
    long n = 0;
    try (RowScanner scanner = engine.tablet(data.id()).openScan(null, END, null, HybridTimestamp.LATEST)) {
      while (!scanner.exhausted()) {
        n += scanner.next(s.pageRows()).size();
        scanner.release();
      }
    }
    return n;
  }

  /** The same with a new scan for every page, from the key after the last page's last row. */
  private long scanPageByPage(StorageEngine engine) throws IOException {
    Tablet t = engine.tablet(data.id());
    long n = 0;
    byte[] start = null;
    while (true) {
      List<Row> page = t.scan(start, END, null, HybridTimestamp.LATEST, s.pageRows());
      n += page.size();
      if (page.size() < s.pageRows()) {
        return n;
      }
      byte[] last = page.get(page.size() - 1).key();
      start = Arrays.copyOf(last, last.length + 1); // the next key after it
    }
  }

  private static long readSequentially(FileSystem fs, Path path, long from, long length, byte[] buf)
      throws IOException {
    long total = 0;
    try (FSDataInputStream in = fs.open(path)) {
      in.seek(from);
      while (total < length) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, length - total));
        if (n < 0) {
          break;
        }
        total += n;
      }
    }
    return total;
  }

  @FunctionalInterface
  private interface Pass {
    void run() throws Exception;
  }

  /**
   * Runs whole passes of {@code a} and {@code b} in turn, {@code a} first in every other pair, until
   * twice {@code minSeconds} have passed (about {@code minSeconds} of each); returns the bytes per
   * second of each, over its own passes' time.
   */
  private static double[] alternatingPasses(Pass a, Pass b, double minSeconds, long bytesPerPass) throws Exception {
    BenchMain.gc();
    long[] nanos = {0, 0};
    long passes = 0;
    long t0 = System.nanoTime();
    do {
      Pass[] order = passes % 2 == 0 ? new Pass[] {a, b} : new Pass[] {b, a};
      for (Pass p : order) {
        long p0 = System.nanoTime();
        p.run();
        nanos[p == a ? 0 : 1] += System.nanoTime() - p0;
      }
      passes++;
    } while (System.nanoTime() - t0 < 2 * minSeconds * 1e9);
    return new double[] {passes * bytesPerPass / (nanos[0] / 1e9), passes * bytesPerPass / (nanos[1] / 1e9)};
  }

  /** Runs whole passes until {@code minSeconds} have passed; returns bytes per second. */
  private static double timedPasses(Pass pass, double minSeconds, long bytesPerPass) throws Exception {
    BenchMain.gc();
    long t0 = System.nanoTime();
    long passes = 0;
    do {
      pass.run();
      passes++;
    } while (System.nanoTime() - t0 < minSeconds * 1e9);
    return passes * bytesPerPass / ((System.nanoTime() - t0) / 1e9);
  }

  // ------------------------------------------------------------------ 3. sizes

  private void sizes(long logBytes, long live, CompactionReport report, SegmentStats stats) {
    Report.heading("3. bytes before and after compaction");
    double before = (double) logBytes / live;
    double after = (double) report.bytesOut() / live;
    System.out.printf("live data (key + value of the newest versions): %,d bytes%n", live);
    System.out.printf("log before compaction: %,d bytes = %.2fx live%n", logBytes, before);
    System.out.printf("sorted segment after: %,d bytes = %.3fx live (data blocks %,d stored / %,d raw, %d blocks,"
        + " %,d entries, %s)%n", report.bytesOut(), after, stats.storedBytes(), stats.rawBytes(), stats.blockCount(),
        stats.entryCount(), stats.compression());
    goal("3. sorted segment after compaction / live data (" + s.versions() + " versions of each row in the log)",
        (double) report.bytesOut(), (double) live, after, "<= 1.3", after <= 1.3);
    summary.row("   log before compaction / live data", Report.num(logBytes), Report.num(live), fmt(before), "", "");
    results.add(() -> Report.result("compaction.bytes", "live", live, "log.before", logBytes, "segment.after",
        report.bytesOut(), "before.ratio", before, "ratio", after, "target", 1.3, "versions", s.versions()));
  }

  /**
   * The log's garbage collection after the compaction: two checkpoints (the one before the
   * compaction is kept as a fallback until the second), two rounds back to back, then the bytes of
   * the log left on disk. The log also holds the other tablet's writes of section 4, which nothing
   * compacted: counted as kept, so the data tablet's share is at most what is left beyond them.
   */
  private void logAfterCollection(StorageEngine engine, long logBytes, long live, CompactionReport report)
      throws Exception {
    Report.heading("3. the log after compaction and the log's garbage collection");
    engine.checkpoint();
    engine.checkpoint();
    engine.collectLogGarbage();
    LogCollector.Round round = engine.collectLogGarbage();
    long onDisk = 0;
    for (FileStatus f : cluster.fs().listStatus(new Path(ROOT, "log"))) {
      onDisk += f.getLen();
    }
    long left = onDisk;
    long others = Math.max(0, engine.logStats().bytes() - logBytes);
    long dataLeft = Math.max(0, left - others);
    double ratio = (double) (dataLeft + report.bytesOut()) / live;
    System.out.printf("deleted %,d log segments (%,d bytes); %,d bytes of log left, of which %,d written by the other"
        + " tablet after the load; this tablet's log bytes left at most %,d%n", round.deleted().size(),
        round.bytesDeleted(), left, others, dataLeft);
    goal("3. log (this tablet's share, at most) + sorted segment after compaction and the log's garbage collection"
        + " / live data", (double) (dataLeft + report.bytesOut()), (double) live, ratio, "<= 1.3", ratio <= 1.3);
    results.add(() -> Report.result("compaction.bytes.after.gc", "live", live, "log.left", left, "log.others", others,
        "segment", report.bytesOut(), "deleted", round.bytesDeleted(), "ratio", ratio, "target", 1.3));
  }

  // ------------------------------------------------------------------ 4. interference

  /** What the windows of one side measured. */
  private static final class Interference {
    final Sample writes = new Sample();
    long[] gets = new long[0];
    final Sample getRates = new Sample();

    void addGets(Window w) {
      gets = Latencies.merge(gets, w.latencies);
      getRates.add(w.result.perSecond());
    }
  }

  private record Window(TimedLoop.Result result, long[] latencies) {}

  private TimedLoop.Result writeWindow(StorageEngine engine, TxnManager txns, String side) throws Exception {
    BenchMain.gc();
    Tablet traffic = engine.tablet(TRAFFIC.id());
    AtomicLong next = trafficRows;
    TimedLoop.Result r = new TimedLoop("writer", s.writers(), next.get()).warmup(s.warmup()).window(s.window())
        .run((thread, rng) -> {
          long row = next.getAndIncrement();
          txns.put(traffic, CompactionRows.key(row), Map.of(VALUE, rows.value(row, 0)), Durability.HFLUSH);
          return 1;
        });
    System.out.printf("  [%s] %d writers: %s puts/s (HFLUSH), %.2f cores, %s%n", side, s.writers(),
        Report.num(r.perSecond()), r.cpuCores(), steal(r));
    return r;
  }

  private Window getWindow(StorageEngine engine, String side) throws Exception {
    BenchMain.gc();
    Latencies lat = new Latencies(s.latencyGetThreads());
    TimedLoop.Result r = new TimedLoop("getter", s.latencyGetThreads(), System.nanoTime()).warmup(s.warmup())
        .window(s.window()).around(lat::start, lat::stop)
        .run((thread, rng) -> {
          int row = rng.nextInt(s.rows());
          long t0 = System.nanoTime();
          Row got = engine.tablet(data.id()).get(CompactionRows.key(row), null, HybridTimestamp.LATEST);
          lat.record(thread, System.nanoTime() - t0);
          if (got == null) {
            throw new IllegalStateException("row " + row + " not found");
          }
          return 1;
        });
    long[] sorted = lat.sorted();
    System.out.printf("  [%s] %d getters: %s gets/s, p50 %.2f ms, p99 %.2f ms, max %.1f ms, %.2f cores, %s%n", side,
        s.latencyGetThreads(), Report.num(r.perSecond()), Latencies.millis(sorted, 50), Latencies.millis(sorted, 99),
        Latencies.millis(sorted, 100), r.cpuCores(), steal(r));
    return new Window(r, sorted);
  }

  /** A window that lost less of the CPU than this to the hypervisor's steal is "quiet" (a diagnosis). */
  private static final double QUIET_STEAL = 0.05;

  private static String steal(TimedLoop.Result r) {
    return Double.isNaN(r.steal()) ? "steal unknown" : String.format(Locale.ROOT, "steal %.0f%%", 100 * r.steal());
  }

  /**
   * Compacts the data tablet on a thread of its own while write and get windows run in pairs: one
   * pair's windows with the compaction running, the other's with it held ({@link PausableFileSystem}:
   * its next read or write waits), the order swapped from pair to pair. Each measure compares the
   * two halves of a pair, neighbours in time: writes by the median of the pairs' ratios, gets by the
   * p99 of all gets while it ran against that of all while it was held. The machine's speed drifts
   * within a run by more than the effect measured (its hypervisor's steal rose from nothing to half
   * within minutes, docs/benchmarks.md, stop 40), so windows minutes apart were not comparable.
   * Only pairs that ended before the compaction did count. The windows with no compaction before it
   * and after it (the measure until stop 39) are compared as well, printed as a diagnosis.
   */
  private CompactionReport compactUnderLoad(StorageEngine engine, TxnManager txns, Interference none)
      throws Exception {
    CompletableFuture<CompactionReport> done = new CompletableFuture<>();
    AtomicLong cpuNanos = new AtomicLong();
    Thread compactor = Threads.newDaemon("bench-compaction", () -> {
      try {
        // As a tablet server's compaction thread does (TabletCompactor): at compaction.thread.nice.
        int nice = TabletCompaction.threadNice(s.config());
        if (nice > 0) {
          Threads.lowerPriority(nice);
        }
        System.out.printf("the compacting thread runs at nice %d (%s)%n", nice, TabletCompaction.THREAD_NICE);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        CompactionReport r = engine.compact(data.id());
        cpuNanos.set(mx.getCurrentThreadCpuTime() - cpu0);
        done.complete(r);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    });
    pausable.watch(compactor);
    long t0 = System.nanoTime();
    compactor.start();
    Interference during = new Interference();
    Interference held = new Interference();
    Sample pairRatios = new Sample();
    Sample quietRatios = new Sample(); // pairs whose write windows both lost under QUIET_STEAL to the hypervisor
    int discarded = 0;
    for (int pair = 0; !done.isDone(); pair++) {
      double[] writes = new double[2]; // running, held
      double[] steal = new double[2];
      Window[] gets = new Window[2];
      boolean ended = false;
      for (int half = 0; half < 2 && !ended; half++) {
        boolean running = (half == 0) == (pair % 2 == 0);
        if (running) {
          pausable.release();
        } else {
          pausable.hold();
        }
        String side = running ? "compacting" : "compaction held";
        TimedLoop.Result w = writeWindow(engine, txns, side);
        writes[running ? 0 : 1] = w.perSecond();
        steal[running ? 0 : 1] = w.steal();
        gets[running ? 0 : 1] = getWindow(engine, side);
        ended = done.isDone();
      }
      pausable.release();
      if (ended) {
        discarded++;
        break;
      }
      during.writes.add(writes[0]);
      during.addGets(gets[0]);
      held.writes.add(writes[1]);
      held.addGets(gets[1]);
      pairRatios.add(writes[0] / writes[1]);
      if (steal[0] < QUIET_STEAL && steal[1] < QUIET_STEAL) {
        quietRatios.add(writes[0] / writes[1]);
      }
      System.out.printf("  pair %d: writes %.2f of the held half's%n", pair + 1, writes[0] / writes[1]);
    }
    CompactionReport r = done.join();
    double seconds = (System.nanoTime() - t0) / 1e9;
    // Write windows with no compaction after it too, as many as before (the diagnosis).
    double writesBefore = none.writes.median();
    for (int i = 0; i < s.baselineWindows(); i++) {
      none.writes.add(writeWindow(engine, txns, "none, after").perSecond());
    }
    System.out.printf("compaction: %,d versions (%,d bytes) in, %,d out (%,d bytes), %,d dropped, in %.1f s under"
        + " load, about half of it held (%s versions/s, %.1f MB/s read); %d pair(s) ended after it and are not"
        + " counted%n", r.versionsIn(), r.bytesIn(), r.versionsOut(), r.bytesOut(), r.versionsDropped(), seconds,
        Report.num(r.versionsIn() / seconds), r.bytesIn() / seconds / 1e6, discarded);
    System.out.printf("the compacting thread used %.1f s of CPU (%.2f cores; the DataNode's work for its reads not"
        + " included)%n", cpuNanos.get() / 1e9, cpuNanos.get() / 1e9 / seconds);
    if (pairRatios.size() == 0) {
      throw new IllegalStateException("the compaction ended before a pair of windows did: give more --rows or"
          + " shorter --window-seconds");
    }
    double writeRatio = pairRatios.median();
    double p99During = Latencies.millis(during.gets, 99);
    double p99Held = Latencies.millis(held.gets, 99);
    double p99Ratio = p99During / p99Held;
    double p99None = Latencies.millis(none.gets, 99);
    System.out.printf("writes: %s puts/s while compacting, %s while held (%d pairs): %.2f (median of the pairs'"
        + " ratios); (diagnosis: the %d pairs whose write windows both lost under %.0f%% of the CPU to the"
        + " hypervisor: %s; against the %d windows with no compaction before and after it, %s puts/s: %.2f;"
        + " against those before only: %.2f)%n", Report.num(during.writes.median()), Report.num(held.writes.median()),
        pairRatios.size(), writeRatio, quietRatios.size(), 100 * QUIET_STEAL,
        quietRatios.size() == 0 ? "none" : String.format(Locale.ROOT, "%.2f", quietRatios.median()),
        none.writes.size(), Report.num(none.writes.median()), during.writes.median() / none.writes.median(),
        during.writes.median() / writesBefore);
    System.out.printf("gets: p99 %.2f ms while compacting (%,d gets), %.2f ms while held (%,d): %.2fx; p50 %.2f vs"
        + " %.2f ms; (diagnosis: p99 %.2f ms in the windows before it: %.2fx)%n", p99During, during.gets.length,
        p99Held, held.gets.length, p99Ratio, Latencies.millis(during.gets, 50), Latencies.millis(held.gets, 50),
        p99None, p99During / p99None);
    goal("4. durable writes (" + s.writers() + " threads, HFLUSH) during compaction / held (puts/s, paired windows)",
        during.writes.median(), held.writes.median(), writeRatio, ">= 0.8", writeRatio >= 0.8);
    goal("4. get p99 (" + s.latencyGetThreads() + " threads) during compaction / held (ms, paired windows)",
        p99During, p99Held, p99Ratio, "<= 2", p99Ratio <= 2);
    results.add(() -> Report.result("compaction.interference.writes", "unit", "puts/s", "writers", s.writers(),
        "during", during.writes.median(), "held", held.writes.median(), "ratio", writeRatio, "target", 0.8,
        "pairs", pairRatios.size(), "none", none.writes.median(), "none.before", writesBefore));
    results.add(() -> Report.result("compaction.interference.get.p99", "unit", "ms", "threads", s.latencyGetThreads(),
        "during", p99During, "held", p99Held, "ratio", p99Ratio, "target", 2.0, "none.before", p99None,
        "compaction.seconds", seconds));
    return r;
  }

  // ------------------------------------------------------------------ 5. random gets

  private void randomGets(StorageEngine engine, SortedSegmentReader segment, byte[][] keys) throws Exception {
    List<BlockInfo> blocks = segment.blocks();
    int[] blockOf = new int[s.rows()];
    for (int r = 0; r < s.rows(); r++) {
      blockOf[r] = blockHolding(blocks, CompactionRows.key(r));
    }
    double avg = blocks.stream().mapToInt(BlockInfo::storedLength).average().orElse(0);
    Report.heading(String.format(Locale.ROOT, "5. uncached random gets of compacted rows vs positioned reads of the"
        + " block holding the same row (%,.0f bytes on average), %d s windows", avg, s.getWindow().toSeconds()));
    Tablet t = engine.tablet(data.id());
    try (FSDataInputStream in = cluster.fs().open(segment.path())) {
      TimedLoop.Op engineGet = (thread, rng) -> {
        int row = rng.nextInt(s.rows());
        if (t.get(CompactionRows.key(row), null, HybridTimestamp.LATEST) == null) {
          throw new IllegalStateException("row " + row + " not found");
        }
        return 1;
      };
      TimedLoop.Op rawRead = (thread, rng) -> {
        BlockInfo b = blocks.get(blockOf[rng.nextInt(s.rows())]);
        in.readFully(b.offset(), new byte[b.storedLength()]);
        return 1;
      };
      int most = s.getThreads().stream().mapToInt(Integer::intValue).max().orElse(1);
      new TimedLoop("warmup-get", most, 1).warmup(Duration.ofSeconds(3)).window(Duration.ofMillis(1)).run(engineGet);
      new TimedLoop("warmup-pread", most, 1).warmup(Duration.ofSeconds(3)).window(Duration.ofMillis(1)).run(rawRead);
      for (int threads : s.getThreads()) {
        Sample engineRate = new Sample();
        Sample rawRate = new Sample();
        Sample ratios = new Sample();
        for (int trial = 1; trial <= s.getTrials(); trial++) {
          long seed = 1000L * trial + 100L * threads; // the same rows on both sides
          BenchMain.gc();
          TimedLoop.Result e = new TimedLoop("engine-get", threads, seed).warmup(s.warmup()).window(s.getWindow())
              .run(engineGet);
          BenchMain.gc();
          TimedLoop.Result r = new TimedLoop("raw-pread", threads, seed).warmup(s.warmup()).window(s.getWindow())
              .run(rawRead);
          engineRate.add(e.perSecond());
          rawRate.add(r.perSecond());
          ratios.add(e.perSecond() / r.perSecond());
          System.out.printf("  %d threads, trial %d: engine %s gets/s (%s), raw %s reads/s (%s): %.2f%n", threads, trial,
              Report.num(e.perSecond()), steal(e), Report.num(r.perSecond()), steal(r), e.perSecond() / r.perSecond());
        }
        // Each trial's two sides run one right after the other; the ratio is the median of the trials'
        // ratios, as the scans' are, so that the machine's drift between trials does not decide it.
        double ratio = ratios.median();
        System.out.printf("%d threads: %s gets/s vs %s reads/s: %.2f (median of the trials' ratios; of the medians:"
            + " %.2f)%n", threads, Report.num(engineRate.median()), Report.num(rawRate.median()), ratio,
            engineRate.median() / rawRate.median());
        goal("5. uncached random get of compacted rows / raw block pread, " + threads + " thread(s) (ops/s)",
            engineRate.median(), rawRate.median(), ratio, ">= 0.85", ratio >= 0.85);
        results.add(() -> Report.result("compaction.get.uniform", "unit", "gets/s", "threads", threads, "engine",
            engineRate.median(), "baseline", rawRate.median(), "ratio", ratio, "target", 0.85, "block.bytes", avg));
      }
    }
  }

  /** The first block whose last key is at or after {@code key}: the one a get of it reads. */
  private static int blockHolding(List<BlockInfo> blocks, byte[] key) {
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(blocks.get(mid).lastKey(), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  // ------------------------------------------------------------------ 3. prose

  private void prose(StorageEngine engine, TxnManager txns) throws Exception {
    Report.heading(String.format(Locale.ROOT, "3. compression of generated prose: %,d rows of %d bytes, one version,"
        + " per block compression", s.proseRows(), s.valueBytes()));
    long live = (long) s.proseRows() * (CompactionRows.KEY_BYTES + s.valueBytes());
    for (TabletDescriptor d : PROSE) {
      Loader.load(txns, engine.tablet(d.id()), CompactionRows::key, r -> Map.of(TEXT, rows.prose(r)), 0,
          s.proseRows(), s.loadWriters());
    }
    System.out.println("sample: " + new String(rows.prose(0), 0, 160, StandardCharsets.US_ASCII)
        + "...");
    for (TabletDescriptor d : PROSE) {
      CompactionReport r = engine.compact(d.id());
      SegmentStats st = engine.registry().snapshot().get(d.id()).groups()[0].segments().get(0).reader().stats();
      double ratio = st.compressionRatio();
      double ofLive = (double) st.fileBytes() / live;
      System.out.printf("  %-10s: data blocks %,d raw -> %,d stored = %.2fx; segment %,d bytes = %.3fx live;"
          + " compacted in %,d ms (%s versions/s, no other load)%n", st.compression(), st.rawBytes(), st.storedBytes(),
          ratio, st.fileBytes(), ofLive, r.millis(), Report.num(r.versionsIn() * 1000.0 / Math.max(1, r.millis())));
      summary.row("3. prose, " + st.compression() + ": compression ratio (raw / stored); segment / live",
          fmt(ratio) + "x", "", fmt(ofLive), "(reported)", "");
      results.add(() -> Report.result("compaction.compression", "compression", st.compression(), "raw", st.rawBytes(),
          "stored", st.storedBytes(), "ratio", ratio, "segment.over.live", ofLive, "millis", r.millis()));
    }
  }

  // ------------------------------------------------------------------ report

  private void goal(String measure, double result, double baseline, double ratio, String goal, boolean met) {
    summary.row(measure, Report.num(result), Report.num(baseline), fmt(ratio), goal, met ? "met" : "NOT MET");
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
