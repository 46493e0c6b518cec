package org.logbase.tabletserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.files.FileIds;
import org.logbase.log.Durability;
import org.logbase.log.LogFileSystems;
import org.logbase.log.SegmentFiles;
import org.logbase.recovery.Checkpointer;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.testing.TestTables;
import org.logbase.txn.RowWrite;
import org.logbase.txn.TxnManager;

/**
 * Every reader of a log whose writer is gone sees the same end of it. A server paused past its
 * ZooKeeper session (on a file system without leases) goes on appending when it wakes; its tablets'
 * new owners open them one after another, and without a seal each reads the log to wherever it ends
 * at that moment. A transaction the paused server wrote in between is then half there: the tablet
 * taken over later has its rows, the one taken over earlier not (the wrong bank total of
 * docs/testing.md). Here the paused writer is an engine that simply goes on after another engine
 * took a tablet of its log over.
 */
class SealedLogTest {
  static final TabletDescriptor LOW = new TabletDescriptor(TestTables.KV, 1, null, utf8("m"));
  static final TabletDescriptor HIGH = new TabletDescriptor(TestTables.KV, 2, utf8("m"), null);

  @TempDir File dir;
  final FileIds ids = FileIds.after(0);

  EngineOptions server(String name, List<TabletDescriptor> tablets) {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, Long.MAX_VALUE);
    return EngineOptions.of(new File(dir, name).toURI(), c, tablets).withShared(new File(dir, "shared").toURI())
        .withFileIds(ids);
  }

  /** One transaction over a row of each tablet, committed on the engine that serves both. */
  static void transfer(TxnManager txns, Tablet low, Tablet high, String name, long startTs) {
    txns.commit(startTs, List.of(
        RowWrite.put(low, utf8("a-" + name), Map.of("v", utf8("debit " + name))),
        RowWrite.put(high, utf8("z-" + name), Map.of("v", utf8("credit " + name)))), Durability.HFLUSH).join();
  }

  @Test
  void tabletsTakenOverAtDifferentTimesFromAWriterThatGoesOnSeeTheSameEndOfItsLog() throws Exception {
    try (StorageEngine paused = StorageEngine.open(server("ts1", List.of(LOW, HIGH)));
        TxnManager txns = TxnManager.standalone(paused)) {
      Tablet low = paused.tablet(LOW.id());
      Tablet high = paused.tablet(HIGH.id());
      transfer(txns, low, high, "before", 1);

      try (StorageEngine first = StorageEngine.open(server("ts2", List.of()))) {
        Tablet lowThere = first.openTablet(LOW);
        assertNotNull(lowThere.get(utf8("a-before"), null, LATEST));

        // The paused server wakes and finishes a transaction it had begun: acknowledged to nobody
        // (its lease lapsed), but in its log.
        transfer(txns, low, high, "after", 2);
        assertNull(lowThere.get(utf8("a-after"), null, LATEST), "taken over before the write");

        try (StorageEngine second = StorageEngine.open(server("ts3", List.of()))) {
          Tablet highThere = second.openTablet(HIGH);
          assertNotNull(highThere.get(utf8("z-before"), null, LATEST));
          assertNull(highThere.get(utf8("z-after"), null, LATEST),
              "the tablet taken over later must not hold half of a transaction the other never saw");
        }
      }
    }
  }

  @Test
  void aRestartSealsItsPreviousIncarnationsLogForReadersThatFindTheServerLive() throws Exception {
    try (StorageEngine paused = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(paused)) {
      Tablet low = paused.tablet(LOW.id());
      txns.put(low, utf8("a-before"), Map.of("v", utf8("1")), Durability.HFLUSH);
      FileSystem fs = LogFileSystems.open(dir.toURI(), new Configuration());
      Path log = new Path(new File(new File(dir, "ts1"), "log").toURI());
      List<Long> before = SegmentFiles.list(fs, log);

      // The same server starts again while its previous incarnation is only paused.
      try (StorageEngine restarted = StorageEngine.open(server("ts1", List.of()))) {
        assertEquals(before, SegmentFiles.list(fs, log), "an incarnation creates no segment before its first write");
        txns.put(low, utf8("a-after"), Map.of("v", utf8("2")), Durability.HFLUSH);

        // The restarted server registered: a tablet's next owner reads its log without sealing it.
        try (StorageEngine next = StorageEngine.open(server("ts2", List.of()).withOtherLogs(logDir -> true))) {
          Tablet lowThere = next.openTablet(LOW);
          assertNotNull(lowThere.get(utf8("a-before"), null, LATEST));
          assertNull(lowThere.get(utf8("a-after"), null, LATEST), "written by the previous incarnation after the restart");
        }
      }
    }
  }
}
