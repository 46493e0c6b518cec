package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.log.Durability;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * A compacted tablet split in two: the daughters share the parent's sorted segment, each reads its
 * own rows from it, counts about its half as its size (a count of the whole segment made each
 * daughter look as large as the parent, and automatic splits split them again and again), and each
 * compacts into a segment of its own rows only.
 */
class CompactedSplitTest {
  static final int ROWS = 2000;

  @TempDir Path dir;

  @Test
  void daughtersReadShareAndCountTheirHalfOfTheParentsSegment() throws Exception {
    TabletDescriptor parent = TestTables.whole(TestTables.KV);
    TabletDescriptor left = new TabletDescriptor(TestTables.KV, 1, null, utf8(key(ROWS / 2)));
    TabletDescriptor right = new TabletDescriptor(TestTables.KV, 2, utf8(key(ROWS / 2)), null);
    try (StorageEngine e = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of()));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(parent);
      for (int i = 0; i < ROWS; i++) {
        txns.put(t, utf8(key(i)), Map.of("v", value(i)), Durability.HFLUSH);
      }
      e.compact(parent.id());
      assertEquals(ROWS, e.tabletOrNull(parent.id()).versions());
      e.splitTablet(parent, utf8(key(ROWS / 2)), 1, 2);
      List<Tablet> daughters = e.openTablets(List.of(left, right));
      for (Tablet d : daughters) {
        long n = d.versions();
        assertTrue(n >= ROWS / 2 && n < ROWS / 2 + 300, d + " counts " + n + " versions of the shared segment");
      }
      for (int i = 0; i < ROWS; i++) {
        Tablet d = daughters.get(i < ROWS / 2 ? 0 : 1);
        assertArrayEquals(value(i), d.get(utf8(key(i)), null, HybridTimestamp.LATEST).value("v"), key(i));
      }
      for (Tablet d : daughters) {
        CompactionReport r = e.compact(d.descriptor().id());
        assertEquals(ROWS / 2, r.versionsOut(), "a daughter's compaction writes its own rows only: " + r);
        assertEquals(ROWS / 2, e.tabletOrNull(d.descriptor().id()).versions());
      }
      assertEquals(ROWS / 2, e.tabletOrNull(left.id()).scan(null, null, null, HybridTimestamp.LATEST, 0).size());
    }
  }

  private static String key(int i) {
    return String.format("k%05d", i);
  }

  private static byte[] value(int i) {
    return utf8("value " + i + " " + "x".repeat(200));
  }
}
