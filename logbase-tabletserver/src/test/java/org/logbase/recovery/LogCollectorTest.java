package org.logbase.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.files.FileIds;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPosition;
import org.logbase.log.LogScanner;
import org.logbase.log.SegmentFiles;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * The log's garbage collection deletes exactly the segments no tablet needs: after a compaction and
 * the next checkpoint (the one before the compaction is kept as a fallback until then) the segments
 * its sorted segments replaced, never one an index entry points into (named by a
 * checkpoint or written after it), one a tablet nobody serves replays from, or the newest segment
 * holding a record; a round that cannot read a manifest deletes nothing. Each check is done with
 * two rounds back to back (the pause between rounds only protects reads in flight).
 */
class LogCollectorTest {
  static final TabletDescriptor LOW = new TabletDescriptor(TestTables.KV, 1, null, utf8("m"));
  static final TabletDescriptor HIGH = new TabletDescriptor(TestTables.KV, 2, utf8("m"), null);

  @TempDir File dir;
  final FileIds ids = FileIds.after(0);
  final Map<String, byte[]> written = new LinkedHashMap<>();

  EngineOptions server(String name, List<TabletDescriptor> tablets) {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, Long.MAX_VALUE)
        .with(LogConfig.SEGMENT_BYTES, 4096).with(LogCollector.INTERVAL_MS, 0);
    return EngineOptions.of(new File(dir, name).toURI(), c, tablets).withShared(new File(dir, "shared").toURI())
        .withFileIds(ids);
  }

  /** Writes rows of 500-byte values (eight to a segment) to a tablet. */
  void write(TxnManager txns, Tablet t, String prefix, int rows) throws IOException {
    for (int i = 0; i < rows; i++) {
      byte[] v = new byte[500];
      v[0] = (byte) i;
      v[1] = (byte) prefix.hashCode();
      txns.put(t, utf8(prefix + i), Map.of("v", v), Durability.HFLUSH);
      written.put(prefix + i, v);
    }
  }

  void assertAll(Tablet t, String prefix) throws IOException {
    int n = 0;
    for (Map.Entry<String, byte[]> w : written.entrySet()) {
      if (w.getKey().startsWith(prefix)) {
        Row r = t.get(utf8(w.getKey()), null, LATEST);
        assertNotNull(r, w.getKey());
        assertArrayEquals(w.getValue(), r.value("v"), w.getKey());
        n++;
      }
    }
    assertTrue(n > 0);
  }

  List<Long> segments(String server) throws IOException {
    FileSystem fs = LogFileSystems.open(dir.toURI(), new Configuration());
    return SegmentFiles.list(fs, new Path(new File(new File(dir, server), "log").toURI()));
  }

  static List<Long> twoRounds(StorageEngine e) throws IOException {
    e.collectLogGarbage();
    return e.collectLogGarbage().deleted();
  }

  @Test
  void segmentsAnIndexPointsIntoStayThoseACompactionReplacedGo() throws Exception {
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(LOW.id());
      write(txns, t, "a", 60);
      e.checkpoint();
      write(txns, t, "b", 60); // after the checkpoint: no checkpoint names their segments
      List<Long> before = segments("ts1");
      assertTrue(before.size() > 10, "the writes span many segments: " + before);
      assertEquals(List.of(), twoRounds(e), "every segment holds versions the index points at");
      assertEquals(before, segments("ts1"));
      assertAll(t, "");

      e.compact(LOW.id());
      t = e.tablet(LOW.id());
      assertEquals(List.of(), twoRounds(e), "the checkpoint before the compaction is kept as a fallback");
      e.checkpoint(); // the fallback now is the compaction's
      List<Long> deleted = twoRounds(e);
      assertTrue(deleted.size() >= before.size() - 2, "the compacted segments went: " + deleted + " of " + before);
      assertAll(t, "");
      write(txns, t, "c", 30);
    }
    // Reopened: the checkpoint, the sorted segment and what is left of the log hold every row.
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(LOW.id());
      assertAll(t, "");
      write(txns, t, "d", 10); // the log's LSNs go on above what is left
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)))) {
      assertAll(e.tablet(LOW.id()), "");
    }
  }

  @Test
  void aTabletsTailAfterItsCheckpointStaysForItsNextOpener() throws Exception {
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW, HIGH)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet low = e.tablet(LOW.id());
      Tablet high = e.tablet(HIGH.id());
      write(txns, high, "x", 10);
      e.checkpoint(); // HIGH's last checkpoint: its tail after this is named by no checkpoint
      for (int i = 0; i < 6; i++) {
        write(txns, high, "y" + i + "-", 5);
        write(txns, low, "a" + i + "-", 10);
      }
      // LOW's checkpoints move past all of it (a compaction's, then another's); HIGH's stay behind.
      e.compact(LOW.id());
      e.compact(LOW.id());
      List<Long> deleted = twoRounds(e);
      assertEquals(List.of(), deleted, "HIGH replays this log from its checkpoint: every later segment stays");
    } // closed without a checkpoint of HIGH, as a server that died

    try (StorageEngine other = StorageEngine.open(server("ts2", List.of()))) {
      Tablet high = other.openTablet(HIGH);
      assertAll(high, "x");
      assertAll(high, "y");
    }
  }

  @Test
  void aRoundThatCannotReadEveryManifestDeletesNothing() throws Exception {
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(LOW.id());
      write(txns, t, "a", 60);
      e.compact(LOW.id());
      e.checkpoint();
      // Another tablet's manifest, damaged: an edit whose CRC fails.
      File other = new File(new File(new File(dir, "shared"), "tablets"), "t" + TestTables.KV.id() + "-9");
      assertTrue(other.mkdirs());
      Files.write(new File(other, String.format("MANIFEST-%020d", 1)).toPath(), new byte[] {0, 0, 0, 2, 1, 2, 3, 4, 9, 9});
      List<Long> before = segments("ts1");
      e.collectLogGarbage();
      LogCollector.Round r = e.collectLogGarbage();
      assertNotNull(r.skipped(), "the round saw the damage");
      assertEquals(List.of(), r.deleted());
      assertEquals(before, segments("ts1"));
      assertAll(t, "");
    }
  }

  @Test
  void oneRoundAloneDeletesNothing() throws Exception {
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(LOW.id()), "a", 60);
      e.compact(LOW.id());
      e.checkpoint();
      LogCollector.Round first = e.collectLogGarbage();
      assertTrue(first.unneeded().size() > 5, "unneeded after the compaction: " + first);
      assertEquals(List.of(), first.deleted(), "found unneeded once: kept until the next round");
      assertNull(first.skipped());
    }
  }

  @Test
  void aLogNoTabletNeedsKeepsItsNewestRecordSoItsLsnsGoOn() throws Exception {
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(LOW.id()), "a", 40);
      e.closeTablet(LOW.id()); // moved away: checkpointed here on closing
    }
    long lsnBefore = maxLsn("ts1");
    try (StorageEngine other = StorageEngine.open(server("ts2", List.of()));
        TxnManager txns = TxnManager.standalone(other)) {
      write(txns, other.openTablet(LOW), "b", 1);
      other.compact(LOW.id()); // its versions in ts1's log rewritten into a sorted segment
      other.checkpoint(); // both kept checkpoints now name ts2's log and that segment only
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of()))) {
      List<Long> before = segments("ts1");
      List<Long> deleted = twoRounds(e);
      assertTrue(!deleted.isEmpty(), "no tablet needs ts1's log");
      assertEquals(before.subList(deleted.size(), before.size()), segments("ts1"), "the oldest went");
      assertEquals(lsnBefore, maxLsn("ts1"), "the segment with the newest record stays");
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(HIGH)));
        TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(HIGH.id()), "x", 3);
    }
    assertTrue(maxLsn("ts1") > lsnBefore + 2, "the log's LSNs went on above " + lsnBefore + ": " + maxLsn("ts1"));
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(HIGH)))) {
      assertAll(e.tablet(HIGH.id()), "x");
    }
  }

  long maxLsn(String server) throws IOException {
    FileSystem fs = LogFileSystems.open(dir.toURI(), new Configuration());
    long[] max = {0};
    LogScanner.scan(fs, new Path(new File(new File(dir, server), "log").toURI()), LogPosition.START,
        LogConfig.DEFAULT.maxFrameBytes(), d -> { }, r -> max[0] = Math.max(max[0], r.record().lsn()));
    return max[0];
  }
}
