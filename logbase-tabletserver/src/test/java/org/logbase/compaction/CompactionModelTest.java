package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import java.net.URI;
import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.logbase.common.Bytes;
import org.logbase.common.Cell;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.SnapshotTooOldException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.recovery.LogCollector;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.MiniHdfs;
import org.logbase.txn.TxnManager;

/**
 * Compaction against an in-memory model: random puts of some columns of one or both column groups,
 * deletes, gets and scans at many snapshots, with compactions between the operations and while they
 * run, and restarts of the engine, on a clock the test moves. Group "p" keeps 3 versions, group "s"
 * has a time to live; the model applies the same retention, so every read must give the same answer
 * before and after any compaction and restart, and a read below the GC horizon must be refused. On
 * the local file system and on a MiniDFSCluster.
 */
class CompactionModelTest {
  static final TableSchema T = new TableSchema("t", 7, List.of(
      new ColumnGroup(0, "p", List.of("a", "b"), StoragePolicy.DEFAULT.withMaxVersions(3)),
      new ColumnGroup(1, "s", List.of("c", "d"), StoragePolicy.DEFAULT.withTtlMs(20_000)
          .withCompression(StoragePolicy.BlockCompression.ZSTD))));
  static final TabletDescriptor WHOLE = new TabletDescriptor(T, 0, null, null);
  static final long RETENTION_MS = 5_000;

  static MiniHdfs hdfs;
  @TempDir static File shared;
  @TempDir File dir;
  /** Where the engine keeps its files: {@link #dir}, or a directory of its own on the MiniDFSCluster. */
  URI root;
  final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
  final AtomicLong segmentsDeleted = new AtomicLong();

  /** One version in the model: a group's columns as written, or a delete (null). */
  record V(long ts, Map<String, byte[]> cols) {}

  final Map<String, List<V>> p = new TreeMap<>();
  final Map<String, List<V>> s = new TreeMap<>();
  long horizon;

  @BeforeAll
  static void startHdfs() throws Exception {
    hdfs = new MiniHdfs(new File(shared, "hdfs"));
  }

  @AfterAll
  static void stopHdfs() {
    hdfs.close();
  }

  EngineOptions options(long txnRetentionMs, Map<String, String> settings) {
    Map<String, String> c = new HashMap<>(settings);
    c.put(TabletCompaction.RETENTION_MS, Long.toString(RETENTION_MS));
    c.put(TabletCompaction.TXN_RETENTION_MS, Long.toString(txnRetentionMs));
    // Small log segments, so that compactions leave whole segments no tablet needs, which the log's
    // garbage collection (run by the test, in rounds) deletes while writes go on.
    c.put(LogConfig.SEGMENT_BYTES, "4096");
    c.put(LogCollector.INTERVAL_MS, "0");
    EngineOptions o = EngineOptions.of(root, Config.of(c), List.of()).withClock(new HybridClock(wall::get));
    return root.getScheme().equals("hdfs") ? o.withHadoop(hdfs.conf()) : o;
  }

  /** The file system and the transaction retention: 0 drops undecided records at once. */
  static Stream<Arguments> cases() {
    return Stream.of(Arguments.of("local", 0L), Arguments.of("local", 24 * 3600 * 1000L),
        Arguments.of("hdfs", 24 * 3600 * 1000L));
  }

  @ParameterizedTest(name = "{0}, transaction retention {1} ms")
  @MethodSource("cases")
  void readsAgreeWithTheModelBeforeAndAfterCompactionsAndRestarts(String fs, long txnRetentionMs) throws Exception {
    root = fs.equals("hdfs") ? hdfs.uri("/model-" + System.nanoTime()) : dir.toURI();
    run(txnRetentionMs, Map.of());
  }

  /**
   * The same with the index read in chunks of a few versions (so a row's versions often span
   * chunks), each chunk's records from the log in reads of a few records: 6 to 12 chunks per group
   * and compaction (what was written since the last), merged in turn with the earlier segment.
   * Every read must still agree with the model.
   */
  @Test
  void readsAgreeWithTheModelWhenCompactionsReadTheIndexInManySmallChunks() throws Exception {
    root = dir.toURI();
    run(24 * 3600 * 1000, Map.of(TabletCompaction.CHUNK_BYTES, "800", TabletCompaction.READ_WINDOW_BYTES, "300"));
  }

  private void run(long txnRetentionMs, Map<String, String> settings) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String why = "seed " + seed;
    List<Long> snapshots = new ArrayList<>();
    long bytesBefore = 0;
    for (int round = 0; round < 6; round++) {
      try (StorageEngine e = StorageEngine.open(options(txnRetentionMs, settings));
          TxnManager txns = TxnManager.standalone(e)) {
        Tablet t = e.openTablet(WHOLE);
        check(e, snapshots, random, why + " after opening, round " + round);
        for (int phase = 0; phase < 4; phase++) {
          // A compaction while the writes of this phase go on.
          CompletableFuture<CompactionReport> running = CompletableFuture.supplyAsync(() -> {
            try {
              CompactionReport compacted = e.compact(WHOLE.id());
              collectGarbage(e);
              return compacted;
            } catch (Exception ex) {
              throw new IllegalStateException(ex);
            }
          });
          for (int op = 0; op < 60; op++) {
            t = e.tabletOrNull(WHOLE.id());
            write(txns, t, random);
            snapshots.add(e.clock().next());
            wall.addAndGet(random.nextInt(400));
          }
          CompactionReport r = running.get();
          collectGarbage(e); // the phase's writes since the compaction's checkpoint span segments of their own
          horizon = Math.max(horizon, r.horizon());
          check(e, snapshots, random, why + " round " + round + " phase " + phase + " after " + r);
          wall.addAndGet(random.nextInt(3000));
        }
        CompactionReport last = e.compact(WHOLE.id());
        collectGarbage(e);
        horizon = Math.max(horizon, last.horizon());
        check(e, snapshots, random, why + " after the last compaction of round " + round + ": " + last);
        bytesBefore = last.bytesOut();
        long segments = sortedSegments();
        // Two groups, a segment each in the newest checkpoint and in the one kept as a fallback.
        assertTrue(segments <= 4, why + ": " + segments + " sorted segments left after " + (round + 1) * 5 + " compactions");
      }
    }
    assertTrue(bytesBefore > 0, "something was compacted");
    assertTrue(segmentsDeleted.get() > 0, "log segments were deleted");
  }

  /**
   * Two rounds of the log's garbage collection back to back: whatever no tablet needs now goes at
   * once (the pause between rounds only protects reads in flight, and this test reads only after).
   */
  private void collectGarbage(StorageEngine e) throws Exception {
    e.collectLogGarbage();
    segmentsDeleted.addAndGet(e.collectLogGarbage().deleted().size());
  }

  /** The sorted segment files under the engine's root, on whichever file system it is. */
  private long sortedSegments() throws Exception {
    FileSystem fs = FileSystem.get(root, root.getScheme().equals("hdfs") ? hdfs.conf() : new Configuration());
    long n = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path(root), true);
    while (files.hasNext()) {
      if (files.next().getPath().getName().startsWith("sorted-")) {
        n++;
      }
    }
    return n;
  }

  private void write(TxnManager txns, Tablet t, Random random) throws Exception {
    String key = "r" + random.nextInt(25);
    int kind = random.nextInt(10);
    if (kind == 0) {
      long ts = txns.delete(t, utf8(key), Durability.HFLUSH);
      add(p, key, new V(ts, null));
      add(s, key, new V(ts, null));
      return;
    }
    Map<String, byte[]> cols = new HashMap<>();
    for (String c : List.of("a", "b", "c", "d")) {
      if (random.nextInt(3) == 0) {
        cols.put(c, utf8(c + "-" + random.nextInt(1000)));
      }
    }
    if (cols.isEmpty()) {
      cols.put("a", utf8("a-only"));
    }
    long ts = txns.put(t, utf8(key), cols, Durability.HFLUSH);
    Map<String, byte[]> inP = new HashMap<>();
    Map<String, byte[]> inS = new HashMap<>();
    cols.forEach((c, v) -> (c.equals("a") || c.equals("b") ? inP : inS).put(c, v));
    if (!inP.isEmpty()) {
      add(p, key, new V(ts, inP));
    }
    if (!inS.isEmpty()) {
      add(s, key, new V(ts, inS));
    }
  }

  private static void add(Map<String, List<V>> m, String key, V v) {
    m.computeIfAbsent(key, k -> new ArrayList<>()).add(0, v); // newest first
  }

  private void check(StorageEngine e, List<Long> snapshots, Random random, String why) throws Exception {
    Tablet t = e.tabletOrNull(WHOLE.id());
    List<Long> asOfs = new ArrayList<>(List.of(HybridTimestamp.LATEST));
    for (int i = 0; i < 12 && !snapshots.isEmpty(); i++) {
      asOfs.add(snapshots.get(random.nextInt(snapshots.size())));
    }
    for (long asOf : asOfs) {
      if (asOf < horizon) {
        assertThrows(SnapshotTooOldException.class, () -> t.get(utf8("r1"), null, asOf), why);
        continue;
      }
      TreeMap<String, Row> expected = new TreeMap<>();
      for (int k = 0; k < 25; k++) {
        String key = "r" + k;
        Row want = expect(key, asOf);
        Row got = t.get(utf8(key), null, asOf);
        assertRow(want, got, why + " get " + key + " as of " + asOf);
        if (want != null) {
          expected.put(key, want);
        }
      }
      List<Row> scanned = t.scan(null, null, null, asOf, 0);
      assertEquals(expected.size(), scanned.size(), why + " scan as of " + asOf);
      for (Row r : scanned) {
        assertRow(expected.get(Bytes.toStringBinary(r.key())), r, why + " scan as of " + asOf);
      }
    }
  }

  private Row expect(String key, long asOf) {
    TreeMap<String, Cell> cells = new TreeMap<>();
    merge(p.getOrDefault(key, List.of()), T.columnGroups().get(0).policy(), asOf, cells);
    merge(s.getOrDefault(key, List.of()), T.columnGroups().get(1).policy(), asOf, cells);
    return cells.isEmpty() ? null : new Row(utf8(key), cells);
  }

  /** What a read sees of one group: retention first (newest versions, time to live), then as of. */
  private void merge(List<V> versions, StoragePolicy policy, long asOf, Map<String, Cell> out) {
    List<String> missing = new ArrayList<>(List.of("a", "b", "c", "d"));
    for (int i = 0; i < versions.size(); i++) {
      V v = versions.get(i);
      if ((policy.maxVersions() > 0 && i >= policy.maxVersions())
          || policy.expired(HybridTimestamp.wallMillis(v.ts()), wall.get()) || v.ts() > asOf) {
        continue;
      }
      if (v.cols() == null) {
        return;
      }
      for (Map.Entry<String, byte[]> c : v.cols().entrySet()) {
        if (missing.remove(c.getKey())) {
          out.put(c.getKey(), new Cell(c.getValue(), v.ts()));
        }
      }
    }
  }

  private static void assertRow(Row want, Row got, String why) {
    if (want == null) {
      assertNull(got, () -> why + ": got " + show(got));
      return;
    }
    assertEquals(show(want), show(got), why);
  }

  /** A row as text: key, then each column's value and timestamp. */
  static String show(Row r) {
    if (r == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder(Bytes.toStringBinary(r.key()));
    r.cells().forEach((c, cell) -> sb.append(' ').append(c).append('=').append(Bytes.toStringBinary(cell.value()))
        .append('@').append(cell.timestamp()));
    return sb.toString();
  }
}
