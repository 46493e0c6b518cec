package org.logbase.tablet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logbase.common.Cell;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.Durability;
import org.logbase.sorted.SegmentStats;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * The rows of a compacted tablet's scanner view the blocks it read (no value copied) and stay
 * readable until the scanner is released; after that a value of theirs is either still its own (the
 * block was not reused: the first blocks, read with positioned reads, and the block the scan is in)
 * or fails, never another row's bytes. Pages read back right while blocks are reused page after
 * page, with and without read-ahead; copies ({@link Row#owned}) outlive the release; a scanner
 * never released, or closed, keeps its rows readable. Each with blocks stored raw (read into the
 * arrays the scan reuses) and compressed with LZ4 and Zstd (decompressed into them).
 */
class ScannedRowLifetimeTest {
  static final int ROWS = 3000;
  static final int PAGE = 300;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(BlockCompression.class)
  void aReleasedPageIsItsOwnOrFailsNeverAnotherRows(BlockCompression compression) throws Exception {
    try (StorageEngine e = StorageEngine.open(options(Config.empty())); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = writeAndCompact(e, txns, compression);
      try (RowScanner scanner = t.openScan(null, null, null, LATEST)) {
        List<Row> first = scanner.next(PAGE);
        check(first, 0);
        List<Row> kept = new ArrayList<>();
        for (Row r : first) {
          kept.add(r.owned());
        }
        assertFalse(first.get(PAGE - 1).cells().get("v").owns(), "a value of a stream-read block is a view");
        scanner.release();
        int failed = 0;
        for (int from = PAGE; from < ROWS; from += PAGE) {
          check(scanner.next(PAGE), from); // read into the arrays the first page's blocks were in
          failed = ownOrFailing(first);
          scanner.release();
        }
        assertTrue(failed > 0, "the first page's values of stream-read blocks fail once those are reused");
        check(kept, 0); // the copies outlive it all
      }
    }
  }

  @ParameterizedTest
  @EnumSource(BlockCompression.class)
  void pagesReadBackRightWhileTheirBlocksAreReusedWithAndWithoutReadAhead(BlockCompression compression)
      throws Exception {
    for (Config c : List.of(Config.empty(), Config.empty().with(SortedSegments.READ_AHEAD_BLOCKS, 4))) {
      Path d = dir.resolve(c.asMap().isEmpty() ? "plain" : "read-ahead");
      try (StorageEngine e = StorageEngine.open(options(d, c)); TxnManager txns = TxnManager.standalone(e)) {
        Tablet t = writeAndCompact(e, txns, compression);
        for (int page : new int[] {1, 7, 64, PAGE, 1000}) {
          try (RowScanner scanner = t.openScan(null, null, null, LATEST)) {
            int from = 0;
            while (!scanner.exhausted()) {
              List<Row> rows = scanner.next(page);
              check(rows, from);
              from += rows.size();
              scanner.release();
            }
            assertEquals(ROWS, from, "pages of " + page);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(BlockCompression.class)
  void aScannerNeverReleasedOrClosedKeepsItsRowsReadable(BlockCompression compression) throws Exception {
    try (StorageEngine e = StorageEngine.open(options(Config.empty())); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = writeAndCompact(e, txns, compression);
      List<Row> all = new ArrayList<>();
      try (RowScanner scanner = t.openScan(null, null, null, LATEST)) {
        while (!scanner.exhausted()) {
          all.addAll(scanner.next(PAGE));
        }
      }
      check(all, 0);

      List<Row> beforeClose;
      try (RowScanner scanner = t.openScan(null, null, null, LATEST)) {
        scanner.next(PAGE);
        beforeClose = scanner.next(PAGE);
      }
      for (int i = 0; i < 3; i++) { // other scans, releasing as they go: none reads into the closed one's blocks
        try (RowScanner other = t.openScan(null, null, null, LATEST)) {
          while (!other.exhausted()) {
            other.next(PAGE);
            other.release();
          }
        }
      }
      check(beforeClose, PAGE);
      check(t.scan(null, null, null, LATEST, 0), 0);
    }
  }

  @Test
  void tabletScanRowsOwnTheirValues() throws Exception {
    try (StorageEngine e = StorageEngine.open(options(Config.empty())); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = writeAndCompact(e, txns, BlockCompression.LZ4);
      List<Row> rows = t.scan(null, null, null, LATEST, 0);
      for (Row r : rows) {
        Cell c = r.cells().get("v");
        assertTrue(c.owns());
        assertSame(c.value(), c.value(), "an owned value is not copied again");
      }
      check(rows, 0);
      check(t.scan(key(17), null, null, LATEST, 1234), 17);
    }
  }

  /**
   * Reads every value of {@code rows} (rows {@code 0, 1, ...}): each is its own or fails as read
   * after its release; returns how many failed.
   */
  private static int ownOrFailing(List<Row> rows) {
    int failed = 0;
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      byte[] v;
      try {
        v = r.value("v");
      } catch (IllegalStateException released) {
        assertTrue(released.getMessage().contains("after its scan took back the block"), released.getMessage());
        assertThrows(IllegalStateException.class, () -> r.cells().get("v").valueLength());
        failed++;
        continue;
      }
      assertArrayEquals(value(i), v, "row " + i + " read after its release is another row's bytes");
    }
    return failed;
  }

  private EngineOptions options(Config settings) {
    return options(dir, settings);
  }

  /** An engine on {@code d} without a block cache (every block read from the file). */
  private static EngineOptions options(Path d, Config settings) {
    return EngineOptions.of(d.toUri(), Config.empty().with(SortedSegments.BLOCK_CACHE_BYTES, 0).withAll(settings),
        List.of());
  }

  /** Table "t" with blocks compressed as asked, its rows written and compacted into one segment. */
  private static Tablet writeAndCompact(StorageEngine e, TxnManager txns, BlockCompression compression)
      throws Exception {
    TabletDescriptor d = new TabletDescriptor(new TableSchema("t", 7, List.of(new ColumnGroup(0, "g",
        List.of("v"), StoragePolicy.DEFAULT.withCompression(compression)))), 0, null, null);
    Tablet t = e.openTablet(d);
    for (int i = 0; i < ROWS; i++) {
      txns.put(t, key(i), Map.of("v", value(i)), Durability.HFLUSH);
    }
    e.compact(d.id());
    GroupIndex g = e.registry().snapshot().get(d.id()).groups()[0];
    assertEquals(0, g.index().size(), "every row is in the sorted segment");
    SegmentStats stats = g.segments().get(0).reader().stats();
    assertTrue(stats.blockCount() > 20, "many blocks");
    assertEquals(compression != BlockCompression.NONE, stats.storedBytes() < stats.rawBytes() / 4,
        "blocks stored " + (compression == BlockCompression.NONE ? "raw" : "compressed") + ": " + stats);
    return e.tablet(d.id());
  }

  /** Rows {@code from, from + 1, ...}, each with its own value. */
  private static void check(List<Row> rows, int from) {
    for (int i = 0; i < rows.size(); i++) {
      assertArrayEquals(key(from + i), rows.get(i).key());
      assertArrayEquals(value(from + i), rows.get(i).value("v"), "row " + (from + i));
    }
  }

  static byte[] key(int i) {
    return utf8(String.format("row%06d", i));
  }

  /** 1,000 bytes of row {@code i}'s own: its 40 random bytes, again and again (LZ4 and Zstd shrink them). */
  static byte[] value(int i) {
    byte[] own = new byte[40];
    new Random(i).nextBytes(own);
    byte[] v = new byte[1000];
    for (int at = 0; at < v.length; at += own.length) {
      System.arraycopy(own, 0, v, at, Math.min(own.length, v.length - at));
    }
    return v;
  }
}
