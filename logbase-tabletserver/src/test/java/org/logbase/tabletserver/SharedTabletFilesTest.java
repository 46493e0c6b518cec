package org.logbase.tabletserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.KeyOutOfRangeException;
import org.logbase.common.Row;
import org.logbase.files.FileIds;
import org.logbase.log.Durability;
import org.logbase.log.LogFileSystems;
import org.logbase.manifest.Manifests;
import org.logbase.recovery.Checkpointer;
import org.logbase.recovery.RecoveryReport;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * Tablets outlive the server that wrote them (issue #9): pointers name cluster-wide file ids, a
 * tablet's manifest and checkpoint live in the shared directory, and a second engine with a root
 * of its own opens a tablet from the first engine's checkpoint and log; a split recorded in the
 * manifest sends every row to its daughter.
 */
class SharedTabletFilesTest {
  static final TabletDescriptor LOW = new TabletDescriptor(TestTables.KV, 1, null, utf8("m"));
  static final TabletDescriptor HIGH = new TabletDescriptor(TestTables.KV, 2, utf8("m"), null);

  @TempDir Path dir;
  final FileIds ids = FileIds.after(0); // the cluster's one source of file ids

  EngineOptions server(String name, List<TabletDescriptor> tablets) {
    Config c = Config.empty().with(Checkpointer.UPDATES, Long.MAX_VALUE).with(Checkpointer.INTERVAL_MS, Long.MAX_VALUE);
    return EngineOptions.of(dir.resolve(name).toUri(), c, tablets).withShared(dir.resolve("shared").toUri())
        .withFileIds(ids);
  }

  /** One acknowledged version of a row: what a reader at its timestamp must get back. */
  record Written(String key, long ts, byte[] value) {}

  static List<Written> write(TxnManager txns, Tablet t, String prefix, int rows, Random rnd) throws IOException {
    List<Written> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      String key = prefix + (i % (rows / 3 + 1)); // some rows get several versions
      byte[] value = new byte[1 + rnd.nextInt(300)];
      rnd.nextBytes(value);
      out.add(new Written(key, txns.put(t, utf8(key), Map.of("v", value), Durability.HFLUSH), value));
    }
    return out;
  }

  static void assertHolds(Tablet t, List<Written> written) throws IOException {
    Map<String, Written> newest = new LinkedHashMap<>();
    for (Written w : written) {
      Row r = t.get(utf8(w.key()), null, w.ts());
      assertNotNull(r, w.key() + " at " + w.ts());
      assertArrayEquals(w.value(), r.value("v"), w.key() + " at " + w.ts());
      newest.put(w.key(), w);
    }
    for (Written w : newest.values()) {
      assertArrayEquals(w.value(), t.get(utf8(w.key()), null, LATEST).value("v"), w.key() + " newest");
    }
  }

  @Test
  void aSecondEngineOpensATabletFromTheFirstEnginesCheckpointAndLogAndReplaysOnlyItsTail() throws Exception {
    Random rnd = new Random(7);
    List<Written> low = new ArrayList<>();
    try (StorageEngine first = StorageEngine.open(server("ts1", List.of(LOW, HIGH)));
        TxnManager txns = TxnManager.standalone(first)) {
      Tablet l = first.tablet(LOW.id());
      Tablet h = first.tablet(HIGH.id());
      for (int round = 0; round < 4; round++) {
        low.addAll(write(txns, l, "a" + round, 100, rnd));
        write(txns, h, "x" + round, 100, rnd);
      }
      first.checkpoint();
      // The tail: 300 records of each tablet, interleaved.
      for (int round = 0; round < 3; round++) {
        low.addAll(write(txns, l, "b" + round, 100, rnd));
        write(txns, h, "y" + round, 100, rnd);
      }
    } // closed without a checkpoint, as a server that died

    List<Written> later;
    try (StorageEngine second = StorageEngine.open(server("ts2", List.of()));
        TxnManager txns = TxnManager.standalone(second)) {
      Tablet l = second.openTablet(LOW);
      RecoveryReport takeover = second.recentOpenings().get(0);
      assertEquals(1, takeover.checkpointsLoaded(), takeover.toString());
      assertEquals(300, takeover.recordsReplayed(), "only this tablet's tail is decoded: " + takeover);
      assertEquals(300, takeover.skipped(), "the other tablet's records are passed over by their header: " + takeover);
      assertHolds(l, low);
      // The takeover checkpointed the tablet with its tail continuing in this server's log.
      CheckpointEdit c = second.checkpoint().get(0);
      assertTrue(c.getLogDir().endsWith("/ts2/log"), c.getLogDir());
      later = write(txns, l, "c", 60, rnd);
    }
    // A restart of the second server finds the tablet through its own log.
    try (StorageEngine second = StorageEngine.open(server("ts2", List.of(LOW)))) {
      Tablet l = second.tablet(LOW.id());
      assertHolds(l, low);
      assertHolds(l, later);
      assertEquals(60, second.recoveryReport().recordsReplayed(), second.recoveryReport().toString());
    }
  }

  @Test
  void aSplitRecordedInTheManifestSendsEveryRowToItsDaughterAtEveryTimestamp() throws Exception {
    TabletDescriptor whole = new TabletDescriptor(TestTables.KV, 0, null, null);
    Random rnd = new Random(11);
    List<Written> written = new ArrayList<>();
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(whole))); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(whole.id());
      written.addAll(write(txns, t, "d", 120, rnd));
      written.addAll(write(txns, t, "q", 120, rnd));
      e.checkpoint(); // some rows in the parent's checkpoint, the rest in its tail
      written.addAll(write(txns, t, "e", 60, rnd));
      written.addAll(write(txns, t, "r", 60, rnd));
    }
    try (FileSystem fs = LogFileSystems.open(dir.toUri(), new Configuration())) {
      Manifests manifests = new Manifests(fs, new org.apache.hadoop.fs.Path(dir.resolve("shared/tablets").toUri()));
      manifests.split(whole, utf8("m"), LOW.tabletId(), HIGH.tabletId(), p -> { throw new AssertionError(p); });
      assertTrue(manifests.log(LOW.id(), p -> { }).current().newest() != null, "the daughter has the parent's checkpoint");
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW, HIGH)))) {
      Tablet low = e.tablet(LOW.id());
      Tablet high = e.tablet(HIGH.id());
      assertEquals(2, e.recoveryReport().checkpointsLoaded(), e.recoveryReport().toString());
      List<Written> toLow = written.stream().filter(w -> w.key().compareTo("m") < 0).toList();
      List<Written> toHigh = written.stream().filter(w -> w.key().compareTo("m") >= 0).toList();
      assertEquals(180, toLow.size());
      assertHolds(low, toLow);
      assertHolds(high, toHigh);
      for (Written w : toLow) {
        assertThrows(KeyOutOfRangeException.class, () -> high.get(utf8(w.key()), null, LATEST));
      }
      // Each daughter's checkpoint holds its own half only (one entry per version), and it still finds
      // every row after a restart.
      for (CheckpointEdit c : e.checkpoint()) {
        assertEquals(180, c.getGroups(0).getEntries(), c.toString());
      }
    }
    try (StorageEngine e = StorageEngine.open(server("ts1", List.of(LOW, HIGH)))) {
      assertHolds(e.tablet(LOW.id()), written.stream().filter(w -> w.key().compareTo("m") < 0).toList());
      assertHolds(e.tablet(HIGH.id()), written.stream().filter(w -> w.key().compareTo("m") >= 0).toList());
    }
    IOException refused = assertThrows(IOException.class, () -> StorageEngine.open(server("ts1", List.of(whole))));
    assertTrue(refused.getMessage().contains("was split into tablets [1, 2]"), refused.getMessage());
  }

  @Test
  void aDamagedCheckpointIsNotReplacedByAnOlderOneWhoseTailIsInAnotherLog() throws Exception {
    Random rnd = new Random(3);
    List<Written> low = new ArrayList<>();
    try (StorageEngine first = StorageEngine.open(server("ts1", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(first)) {
      low.addAll(write(txns, first.tablet(LOW.id()), "a", 100, rnd));
      first.checkpoint();
      low.addAll(write(txns, first.tablet(LOW.id()), "c", 10, rnd)); // a tail: the takeover writes a new index file
    }
    try (StorageEngine second = StorageEngine.open(server("ts2", List.of(LOW)));
        TxnManager txns = TxnManager.standalone(second)) {
      low.addAll(write(txns, second.tablet(LOW.id()), "b", 100, rnd)); // only in ts2's log
    }
    // The newest checkpoint (the takeover's, continuing in ts2's log) is damaged; the older one
    // continues in ts1's log, which does not hold the "b" rows: using it would lose them.
    Path newest;
    try (var files = java.nio.file.Files.list(dir.resolve("shared/tablets/" + LOW.id()))) {
      newest = files.filter(p -> p.toString().endsWith(".idx")).max(java.util.Comparator.naturalOrder()).orElseThrow();
    }
    byte[] b = java.nio.file.Files.readAllBytes(newest);
    b[b.length / 2] ^= 1;
    java.nio.file.Files.write(newest, b);
    IOException refused = assertThrows(IOException.class, () -> StorageEngine.open(server("ts2", List.of(LOW))));
    assertTrue(refused.getMessage().contains("cannot be opened"), refused.getMessage());
  }
}
