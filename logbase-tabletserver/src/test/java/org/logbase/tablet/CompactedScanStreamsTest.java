package org.logbase.tablet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.Durability;
import org.logbase.sorted.StreamCountingFileSystem;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * A compacted tablet's scans read its sorted segment through a stream of their own and give it back
 * released, also when a page stops at its limit in the middle of the segment; gets open no stream;
 * a compaction reads the earlier segment through a stream and releases it; a scanner reads page
 * after page through one stream, holds it between pages and gives it back at its end or when
 * closed; closing the engine closes every stream.
 */
class CompactedScanStreamsTest {
  static final int ROWS = 2000;
  static final TabletDescriptor WHOLE = new TabletDescriptor(new TableSchema("s", 4, List.of(
      new ColumnGroup(0, "g", List.of("v"), StoragePolicy.DEFAULT))), 0, null, null);

  @TempDir Path dir;

  @Test
  void scansCloseTheirStreamsGetsOpenNoneCompactionReadsSequentially() throws Exception {
    AtomicReference<StreamCountingFileSystem> counting = new AtomicReference<>();
    try (StorageEngine e = StorageEngine.open(countingStreams(counting)); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = writeAndCompact(e, txns);
      StreamCountingFileSystem c = counting.get();
      assertEquals(1, c.open(), "the new segment's reader");
      assertEquals(0, c.sequentialBytes(), "nothing read sequentially yet");

      t = e.tablet(WHOLE.id());
      List<Row> page = t.scan(key(100), null, null, LATEST, 500);
      check(page, 100, 500, 0);
      assertTrue(c.sequentialBytes() > 0, "the page's blocks after the first were read through a stream");
      assertEquals(0, c.holding(), "the page stopped at its limit and released its stream");
      assertEquals(2, c.opened(), "the reader's stream and the page's");

      check(t.scan(null, null, null, LATEST, 0), 0, ROWS, 0);
      assertEquals(0, c.holding(), "a full scan released its stream");
      assertEquals(2, c.opened(), "and reused the page's");

      int opened = c.opened();
      long sequential = c.sequentialBytes();
      for (int i = 0; i < ROWS; i += 7) {
        assertArrayEquals(value(i, 0), t.get(key(i), null, LATEST).value("v"));
      }
      assertEquals(opened, c.opened(), "gets open no stream");
      assertEquals(sequential, c.sequentialBytes());

      for (int i = 0; i < ROWS; i += 2) {
        txns.put(t, key(i), Map.of("v", value(i, 1)), Durability.HFLUSH);
      }
      e.compact(WHOLE.id());
      assertTrue(c.sequentialBytes() > sequential, "the compaction read the earlier segment through a stream");
      assertEquals(0, c.holding(), "and released it");
      t = e.tablet(WHOLE.id());
      List<Row> all = t.scan(null, null, null, LATEST, 0);
      assertEquals(ROWS, all.size());
      for (int i = 0; i < ROWS; i++) {
        assertArrayEquals(value(i, i % 2 == 0 ? 1 : 0), all.get(i).value("v"), "row " + i);
      }
      assertEquals(0, c.holding(), "every scan's stream is released");
    }
    assertEquals(0, counting.get().open(), "closing the engine closed every stream");
  }

  @Test
  void aScannerReadsPageAfterPageThroughOneStreamAndClosingItGivesItBack() throws Exception {
    AtomicReference<StreamCountingFileSystem> counting = new AtomicReference<>();
    try (StorageEngine e = StorageEngine.open(countingStreams(counting)); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = writeAndCompact(e, txns);
      t = e.tablet(WHOLE.id());
      StreamCountingFileSystem c = counting.get();
      long positioned = c.positionedReads();

      try (RowScanner scanner = t.openScan(null, null, null, LATEST)) {
        for (int from = 0; from < ROWS; from += 300) {
          check(scanner.next(300), from, Math.min(300, ROWS - from), 0);
          assertTrue(from + 300 >= ROWS || c.holding() == 1, "the stream stays with the scanner between pages");
        }
        assertTrue(scanner.exhausted());
        assertEquals(List.of(), scanner.next(300), "nothing after the end");
      }
      assertEquals(2, c.opened(), "one stream for all the pages (and the reader's own)");
      assertTrue(c.positionedReads() - positioned <= 2, "positioned reads for the first page only: "
          + (c.positionedReads() - positioned));
      assertEquals(0, c.holding(), "the scanner read to its end gave its stream back");

      RowScanner stopped = t.openScan(key(10), null, null, LATEST);
      check(stopped.next(700), 10, 700, 0);
      assertEquals(1, c.holding(), "a scanner stopped in the middle holds its stream");
      stopped.close();
      assertEquals(0, c.holding(), "until it is closed");
      assertThrows(IllegalStateException.class, () -> stopped.next(1), "a closed scanner reads nothing more");

      // Written after the scanner was opened: not in it (it reads the tablet it was opened on).
      try (RowScanner before = t.openScan(null, null, null, LATEST)) {
        check(before.next(10), 0, 10, 0);
        txns.put(e.tablet(WHOLE.id()), key(5000), Map.of("v", value(5000, 0)), Durability.HFLUSH);
        e.compact(WHOLE.id());
        List<Row> rest = before.next(ROWS);
        check(rest, 10, ROWS - 10, 0);
      }
    }
    assertEquals(0, counting.get().open(), "closing the engine closed every stream");
  }

  /** An engine on {@link #dir} without a block cache, whose segment streams {@code counting} counts. */
  private EngineOptions countingStreams(AtomicReference<StreamCountingFileSystem> counting) {
    return EngineOptions.of(dir.toUri(), Config.empty().with(SortedSegments.BLOCK_CACHE_BYTES, 0), List.of())
        .withFileSystem(fs -> {
          counting.set(new StreamCountingFileSystem(fs, ".lbs"));
          return counting.get();
        });
  }

  /** Opens {@link #WHOLE}, writes version 0 of its rows and compacts it. */
  private static Tablet writeAndCompact(StorageEngine e, TxnManager txns) throws Exception {
    Tablet t = e.openTablet(WHOLE);
    for (int i = 0; i < ROWS; i++) {
      txns.put(t, key(i), Map.of("v", value(i, 0)), Durability.HFLUSH);
    }
    e.compact(WHOLE.id());
    return t;
  }

  /** Rows {@code from, from + 1, ...}, {@code n} of them, each with its version {@code version}. */
  static void check(List<Row> rows, int from, int n, int version) {
    assertEquals(n, rows.size());
    for (int i = 0; i < n; i++) {
      assertArrayEquals(key(from + i), rows.get(i).key());
      assertArrayEquals(value(from + i, version), rows.get(i).value("v"), "row " + (from + i));
    }
  }

  static byte[] key(int i) {
    return utf8(String.format("row%06d", i));
  }

  /** 1,000 bytes that differ by row and version. */
  static byte[] value(int i, int version) {
    byte[] v = new byte[1000];
    Arrays.fill(v, (byte) (i * 31 + version));
    v[0] = (byte) version;
    return v;
  }
}
