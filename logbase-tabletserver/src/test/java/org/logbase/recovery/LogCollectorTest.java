package org.logbase.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
import org.logbase.tabletserver.OtherLogs;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.MiniHdfs;
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
  /** Where the servers' roots and the shared directory are: {@link #dir}, or a directory on {@link #hdfs}. */
  URI base;
  Configuration conf = new Configuration();
  MiniHdfs hdfs;

  @BeforeEach
  void onTheLocalFileSystem() {
    base = dir.toURI();
  }

  /** The test's servers on a MiniDFSCluster of its own. */
  void onHdfs() throws IOException {
    hdfs = new MiniHdfs(new File(dir, "hdfs"));
    base = hdfs.uri("/collector/");
    conf = hdfs.conf();
  }

  @AfterEach
  void stopHdfs() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  URI uri(String under) {
    return base.resolve(under);
  }
  final FileIds ids = FileIds.after(0);
  final Map<String, byte[]> written = new LinkedHashMap<>();

  EngineOptions server(String name, List<TabletDescriptor> tablets) {
    return server(name, tablets, Config.empty());
  }

  /** A server with {@code more} settings over the test's (a gone log's segments wait for nothing). */
  EngineOptions server(String name, List<TabletDescriptor> tablets, Config more) {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, Long.MAX_VALUE)
        .with(LogConfig.SEGMENT_BYTES, 4096).with(LogCollector.INTERVAL_MS, 0).with(LogCollector.GONE_GRACE_MS, 0)
        .withAll(more);
    return EngineOptions.of(uri(name), c, tablets).withShared(uri("shared")).withHadoop(conf)
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
    FileSystem fs = LogFileSystems.open(base, conf);
    return SegmentFiles.list(fs, new Path(uri(server + "/log")));
  }

  /** Other logs whose writers are gone, {@code logs} among them for the collector. */
  static OtherLogs gone(Path... logs) {
    return new OtherLogs() {
      @Override
      public boolean writerLive(Path logDir) {
        return false;
      }

      @Override
      public List<Path> goneLogs(FileSystem fs, Path ownLog) {
        return List.of(logs);
      }
    };
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

  /**
   * A server that died and never came back: a live one collects its log with the same rules. Before
   * its tablet is taken over, nothing goes (the checkpoint names what it indexes, and the tail after
   * it is replayed from there); once the new owner's kept checkpoints moved past it, all but the
   * segment with the newest record go, and the tablet reads whole, also after the dead server
   * comes back and goes on from what is left.
   */
  @ParameterizedTest
  @ValueSource(strings = {"local", "hdfs"})
  void aGoneServersLogIsCollectedByALiveOneOnceItsTabletsMovedOn(String fileSystem) throws Exception {
    if (fileSystem.equals("hdfs")) {
      onHdfs();
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(LOW.id());
      write(txns, t, "a", 60);
      e.checkpoint();
      write(txns, t, "b", 60); // the tail: no checkpoint names these segments, LOW replays them
    } // closed without a checkpoint of the tail, as a server that died
    List<Long> before = segments("ts1");
    assertTrue(before.size() > 10, "the writes span many segments: " + before);
    long lsnBefore = maxLsn("ts1");
    Path ts1Log = new Path(uri("ts1/log"));
    OtherLogs ts1Gone = gone(ts1Log);
    try (StorageEngine other = StorageEngine.open(server("ts2", List.of()).withOtherLogs(ts1Gone));
        TxnManager txns = TxnManager.standalone(other)) {
      assertEquals(List.of(), twoRounds(other), "LOW is not taken over yet: it needs all of ts1's log");
      assertEquals(before, segments("ts1"));
      Tablet low = other.openTablet(LOW);
      assertAll(low, "");
      other.compact(LOW.id());
      assertEquals(List.of(), twoRounds(other), "the checkpoint before the compaction is kept as a fallback");
      other.checkpoint(); // both kept checkpoints now name ts2's log and the sorted segment only
    }
    Config waiting = Config.empty().with(LogCollector.GONE_GRACE_MS, 3_600_000);
    try (StorageEngine other = StorageEngine.open(server("ts2", List.of(LOW), waiting).withOtherLogs(ts1Gone))) {
      assertEquals(List.of(), twoRounds(other), "a gone log's segments wait an hour for scans elsewhere");
      assertEquals(before, segments("ts1"));
    }
    // Another gone log that cannot be read keeps neither ts1's nor ts2's own from being collected.
    Path ts3Log = new Path(uri("ts3/log"));
    OtherLogs twoGone = gone(ts3Log, ts1Log);
    UnaryOperator<FileSystem> ts3Unreadable = fs -> new FilterFileSystem(fs) {
      @Override
      public FileStatus[] listStatus(Path p) throws IOException {
        if (p.toUri().getPath().contains("/ts3/")) {
          throw new IOException("ts3's log cannot be listed");
        }
        return super.listStatus(p);
      }
    };
    try (StorageEngine other = StorageEngine.open(server("ts2", List.of(LOW)).withOtherLogs(twoGone)
            .withFileSystem(ts3Unreadable));
        TxnManager txns = TxnManager.standalone(other)) {
      List<Long> deleted = twoRounds(other);
      assertEquals(before.subList(0, deleted.size()), deleted, "the oldest went");
      assertTrue(deleted.size() >= before.size() - 2, "all but the newest record's segment went: " + deleted);
      assertEquals(before.subList(deleted.size(), before.size()), segments("ts1"));
      assertEquals(lsnBefore, maxLsn("ts1"), "the segment with the newest record stays");
      assertTrue(SegmentFiles.isCollected(LogFileSystems.open(base, conf), ts1Log),
          "marked collected: a tablet of ts1's whose checkpoints are all unusable is refused, not rebuilt from it");
      assertAll(other.tablet(LOW.id()), "");
      write(txns, other.tablet(LOW.id()), "c", 5);
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(HIGH)));
        TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(HIGH.id()), "x", 3); // back: its log goes on from what is left
    }
    assertTrue(maxLsn("ts1") > lsnBefore + 2, "the log's LSNs went on above " + lsnBefore + ": " + maxLsn("ts1"));
    try (StorageEngine other = StorageEngine.open(server("ts2", List.of(LOW)))) {
      for (String prefix : List.of("a", "b", "c")) {
        assertAll(other.tablet(LOW.id()), prefix);
      }
    }
  }

  @Test
  void aTabletWhoseCheckpointsAreAllUnusableIsRefusedOnceItsLogWasCollected() throws Exception {
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW, HIGH)));
        TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(HIGH.id()), "x", 30);
      write(txns, e.tablet(LOW.id()), "a", 60);
      e.compact(LOW.id());
      e.compact(HIGH.id());
      e.checkpoint();
      assertTrue(twoRounds(e).size() > 5, "collected");
      write(txns, e.tablet(HIGH.id()), "y", 10);
      e.checkpoint();
    }
    // Every index file of HIGH damaged: both kept checkpoints unusable. Its history is in a sorted
    // segment and in a log whose start is gone, so it must not open as if it were empty.
    File high = new File(new File(new File(dir, "shared"), "tablets"), "t" + TestTables.KV.id() + "-2");
    int damaged = 0;
    for (File f : high.listFiles((d, name) -> name.endsWith(".idx"))) {
      byte[] b = Files.readAllBytes(f.toPath());
      b[b.length / 2] ^= 0x5a;
      Files.write(f.toPath(), b);
      damaged++;
    }
    assertTrue(damaged > 0);
    IOException refused = assertThrows(IOException.class, () -> StorageEngine.open(server("ts1", List.of(LOW, HIGH))));
    assertTrue(refused.getMessage().contains("cannot be opened"), refused.getMessage());
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW)))) {
      assertAll(e.tablet(LOW.id()), "a");
    }
  }

  @Test
  void aSplitParentDoesNotHoldTheLogOnceItsDaughtersMovedOn() throws Exception {
    TabletDescriptor parent = TestTables.whole(TestTables.KV);
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(parent)));
        TxnManager txns = TxnManager.standalone(e)) {
      write(txns, e.tablet(parent.id()), "a", 30);
      write(txns, e.tablet(parent.id()), "z", 30);
      e.splitTablet(parent, utf8("m"), LOW.tabletId(), HIGH.tabletId());
      List<Tablet> daughters = e.openTablets(List.of(LOW, HIGH));
      write(txns, daughters.get(0), "b", 10);
      write(txns, daughters.get(1), "y", 10);
      e.compact(LOW.id());
      e.compact(HIGH.id());
      e.checkpoint();
      List<Long> deleted = twoRounds(e);
      assertTrue(deleted.size() > 5, "the retired parent's checkpoints hold nothing: " + deleted);
      assertAll(e.tablet(LOW.id()), "a");
      assertAll(e.tablet(LOW.id()), "b");
      assertAll(e.tablet(HIGH.id()), "z");
      assertAll(e.tablet(HIGH.id()), "y");
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW, HIGH)))) {
      assertAll(e.tablet(LOW.id()), "a");
      assertAll(e.tablet(HIGH.id()), "z");
      assertAll(e.tablet(HIGH.id()), "y");
    }
  }

  @Test
  void aDroppedTablesManifestsStopHoldingTheLog() throws Exception {
    TabletDescriptor users = TestTables.whole(TestTables.USERS);
    Set<Integer> dropped = ConcurrentHashMap.newKeySet();
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(users, LOW)).withDroppedTables(() -> Set.copyOf(dropped)));
        TxnManager txns = TxnManager.standalone(e)) {
      for (int i = 0; i < 20; i++) {
        txns.put(e.tablet(users.id()), utf8("u" + i), Map.of("name", new byte[500]), Durability.HFLUSH);
      }
      e.closeTablet(users.id()); // its manifest stays, naming this log, as a dropped table's does
      write(txns, e.tablet(LOW.id()), "a", 60);
      e.compact(LOW.id());
      e.checkpoint();
      List<Long> held = twoRounds(e);
      assertTrue(held.isEmpty(), "the closed tablet's manifest names the segments it and LOW share: " + held);
      dropped.add(TestTables.USERS.id());
      List<Long> deleted = twoRounds(e);
      assertTrue(deleted.size() > 5, "once its table is dropped, its manifest counts no more: " + deleted);
      assertAll(e.tablet(LOW.id()), "a");
    }
  }

  long maxLsn(String server) throws IOException {
    FileSystem fs = LogFileSystems.open(base, conf);
    long[] max = {0};
    LogScanner.scan(fs, new Path(uri(server + "/log")), LogPosition.START,
        LogConfig.DEFAULT.maxFrameBytes(), d -> { }, r -> max[0] = Math.max(max[0], r.record().lsn()));
    return max[0];
  }
}
