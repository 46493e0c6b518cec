package org.logbase.tabletserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.files.ReadsInProgress;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.recovery.Checkpointer;
import org.logbase.recovery.LogCollector;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.RowScanner;
import org.logbase.tablet.SortedSegments;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * A scan kept open across calls (a read in progress, as a server's scan call is) reads every row of
 * the tablet it began on while compactions, checkpoints and the log's garbage collection go on
 * around it: the sorted segment a compaction replaced and the log segments its index points into
 * are deleted only after the scan ends, and then they are, even while a read begun after they were
 * found unneeded is still open.
 */
class ScanKeepsItsFilesTest {
  static final TabletDescriptor TABLET = new TabletDescriptor(TestTables.KV, 1, null, null);
  static final int ROWS = 120;

  @TempDir Path dir;

  @Test
  void filesAScanMayReadStayUntilItEndsAndGoAfter() throws Exception {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, Long.MAX_VALUE)
        .with(LogConfig.SEGMENT_BYTES, 4096).with(LogCollector.INTERVAL_MS, 0)
        .with(SortedSegments.BLOCK_CACHE_BYTES, 0).with(RecordCaches.POLICY, "none");
    EngineOptions o = EngineOptions.of(dir.resolve("ts").toUri(), c, List.of(TABLET))
        .withShared(dir.resolve("shared").toUri());
    try (StorageEngine e = StorageEngine.open(o); TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(TABLET.id()), 0, ROWS, 1);
      e.compact(TABLET.id());
      e.checkpoint();
      twoRounds(e); // the log the first compaction replaced goes
      List<Path> firstSegment = sortedSegments();
      assertEquals(1, firstSegment.size(), "one sorted segment: " + firstSegment);
      write(txns, e.tablet(TABLET.id()), 0, ROWS, 2); // even rows: version 2, in the index and the log
      List<Path> logBefore = logSegments();

      Tablet t = e.tablet(TABLET.id());
      long asOf = t.snapshotTimestamp();
      ReadsInProgress.Read read = e.reads().begin(asOf);
      RowScanner scanner = e.tablet(TABLET.id()).openScan(null, null, null, asOf);
      List<Row> rows = new ArrayList<>(scanner.next(10));

      // The tablet moves on: the second compaction replaces the first segment and the index, more
      // writes roll the log past the segments the index pointed into, checkpoints stop naming both.
      e.compact(TABLET.id());
      write(txns, e.tablet(TABLET.id()), ROWS, 2 * ROWS, 1);
      e.checkpoint();
      e.checkpoint();
      assertEquals(List.of(), twoRounds(e), "no log segment goes while the scan may read it");
      assertEquals(1, e.reads().size());
      for (Path p : firstSegment) {
        assertTrue(Files.exists(p), "the replaced sorted segment stays while the scan may read it: " + p);
      }
      for (Path p : logBefore) {
        assertTrue(Files.exists(p), "the log segment stays while the scan may read it: " + p);
      }

      while (!scanner.exhausted()) {
        rows.addAll(scanner.next(7));
      }
      check(rows);
      // A read begun after the files were found unneeded cannot read them: it holds nothing back.
      ReadsInProgress.Read later = e.reads().begin(e.tablet(TABLET.id()).snapshotTimestamp());
      scanner.close();
      read.close();

      e.checkpoint();
      for (Path p : firstSegment) {
        assertFalse(Files.exists(p), "the replaced sorted segment goes at the checkpoint after the scan: " + p);
      }
      List<Long> deleted = e.collectLogGarbage().deleted();
      assertFalse(deleted.isEmpty(), "the log segments the scan kept go at the round after it");
      assertTrue(logBefore.stream().anyMatch(p -> !Files.exists(p)), "some of them: " + deleted);
      check(e.tablet(TABLET.id()).scan(null, utf8(key(ROWS)), null, LATEST, 0)); // nothing else went
      later.close();
    }
  }

  /** Rows {@code from} to {@code to}: version 1 of every row, version 2 of the even ones if {@code version} is 2. */
  private static void write(TxnManager txns, Tablet t, int from, int to, int version) throws IOException {
    for (int i = from; i < to; i++) {
      if (version == 1 || i % 2 == 0) {
        txns.put(t, utf8(key(i)), Map.of("v", value(i, version)), Durability.HFLUSH);
      }
    }
  }

  /** The rows as of the scan: every row of the first {@link #ROWS}, the even ones at version 2. */
  private static void check(List<Row> rows) {
    assertEquals(ROWS, rows.size());
    for (int i = 0; i < ROWS; i++) {
      assertArrayEquals(utf8(key(i)), rows.get(i).key());
      assertArrayEquals(value(i, i % 2 == 0 ? 2 : 1), rows.get(i).value("v"), "row " + i);
    }
  }

  private static String key(int i) {
    return String.format("row%05d", i);
  }

  /** 500 bytes: eight writes fill a 4 KiB log segment. */
  private static byte[] value(int i, int version) {
    byte[] v = new byte[500];
    v[0] = (byte) i;
    v[1] = (byte) (i >> 8);
    v[2] = (byte) version;
    return v;
  }

  private static List<Long> twoRounds(StorageEngine e) throws IOException {
    e.collectLogGarbage();
    return e.collectLogGarbage().deleted();
  }

  private List<Path> sortedSegments() throws IOException {
    return files(dir.resolve("shared"), ".lbs");
  }

  private List<Path> logSegments() throws IOException {
    return files(dir.resolve("ts").resolve("log"), "");
  }

  private static List<Path> files(Path root, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(suffix))
          .filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
    }
  }
}
