package org.logbase.tabletserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.KeyOutOfRangeException;
import org.logbase.common.Row;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.Durability;
import org.logbase.recovery.RecoveryReport;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/**
 * Opening many tablets at once: a restart's worth is rebuilt with one pass over the log (issue #9:
 * a server opening T tablets one by one read its log T times, and a table of thousands of tablets
 * took the servers down), and every tablet finds its rows; the registry answers by name and by key.
 */
class TabletOpeningTest {
  static final int TABLETS = 64;
  @TempDir Path dir;

  /** 64 tablets of table "kv": [, k01), [k01, k02), ..., [k63, ). */
  static List<TabletDescriptor> tablets() {
    List<TabletDescriptor> out = new ArrayList<>();
    for (int i = 0; i < TABLETS; i++) {
      out.add(new TabletDescriptor(TestTables.KV, i, i == 0 ? null : utf8(String.format("k%02d", i)),
          i == TABLETS - 1 ? null : utf8(String.format("k%02d", i + 1))));
    }
    return out;
  }

  EngineOptions options() {
    return EngineOptions.of(dir.toUri(), Config.empty(), List.of());
  }

  @Test
  void aRestartOpensSixtyFourTabletsWithOneReplayAndFindsEveryRow() throws Exception {
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      List<Tablet> open = e.openTablets(tablets());
      for (int i = 0; i < TABLETS; i++) {
        for (int r = 0; r < 20; r++) {
          String key = String.format("k%02d-%03d", i, r);
          txns.put(open.get(i), utf8(key), Map.of("v", utf8("value of " + key)), Durability.HFLUSH);
        }
      }
      e.checkpoint(); // half of the rows in checkpoints, the rest in the tail
      for (int i = 0; i < TABLETS; i++) {
        String key = String.format("k%02d-late", i);
        txns.put(open.get(i), utf8(key), Map.of("v", utf8("value of " + key)), Durability.HFLUSH);
      }
    }
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      List<Tablet> open = e.openTablets(tablets());
      List<RecoveryReport> openings = e.recentOpenings();
      assertEquals(1, openings.size(), "one replay for all tablets: " + openings);
      assertEquals(TABLETS, openings.get(0).tablets());
      for (int i = 0; i < TABLETS; i++) {
        for (String suffix : List.of("000", "019", "late")) {
          String key = String.format("k%02d-%s", i, suffix);
          Row row = open.get(i).get(utf8(key), null, LATEST);
          assertNotNull(row, key);
          assertArrayEquals(utf8("value of " + key), row.value("v"), key);
        }
      }
      TabletRegistry.Snapshot registry = e.registry().snapshot();
      assertEquals(TABLETS, registry.size());
      assertSame(open.get(7), registry.find("kv", 7));
      assertSame(open.get(7), registry.findByKey("kv", utf8("k07-anything")));
      assertSame(open.get(0), registry.findByKey("kv", utf8("a")));
      assertSame(open.get(TABLETS - 1), registry.findByKey("kv", utf8("z")));
      assertNull(registry.findByKey("users", utf8("k07")), "another table");
    }
  }

  @Test
  void recordsWrittenByATabletReachTheDaughterWhoseRangeHoldsThemAtEveryTimestamp() throws Exception {
    TabletDescriptor whole = TestTables.whole(TestTables.KV);
    TabletDescriptor left = new TabletDescriptor(TestTables.KV, 1, null, utf8("m"));
    TabletDescriptor right = new TabletDescriptor(TestTables.KV, 2, utf8("m"), null);
    Map<String, List<Long>> versions = new TreeMap<>();
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(whole);
      for (int round = 0; round < 3; round++) {
        for (String key : List.of("a", "f", "l", "m", "q", "z")) {
          versions.computeIfAbsent(key, k -> new ArrayList<>())
              .add(txns.put(t, utf8(key), Map.of("v", utf8(key + round)), Durability.HFLUSH));
        }
      }
      assertThrows(InvalidRequestException.class, () -> e.openTablet(left), "a daughter overlapping its parent");
    }
    // The split: the parent is not opened again; its daughters get its key range between them.
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      List<Tablet> daughters = e.openTablets(List.of(left, right));
      for (Map.Entry<String, List<Long>> v : versions.entrySet()) {
        Tablet holder = v.getKey().compareTo("m") < 0 ? daughters.get(0) : daughters.get(1);
        Tablet other = holder == daughters.get(0) ? daughters.get(1) : daughters.get(0);
        for (int round = 0; round < 3; round++) {
          Row r = holder.get(utf8(v.getKey()), null, v.getValue().get(round));
          assertArrayEquals(utf8(v.getKey() + round), r.value("v"), v.getKey() + " at version " + round);
        }
        assertThrows(KeyOutOfRangeException.class, () -> other.get(utf8(v.getKey()), null, LATEST),
            "the other daughter does not hold " + v.getKey());
      }
    }
  }

  /**
   * Requests name tablets by table name: a tablet of another table of the same name (dropped and
   * created again, so another id) is not opened while one of the first is open, in either order,
   * nor two of them in one call; once the first is closed, the other opens.
   */
  @Test
  void tabletsOfTwoTablesOfOneNameAreNotOpenTogether() throws Exception {
    TableSchema again = new TableSchema(TestTables.KV.name(), TestTables.KV.id() + 7, TestTables.KV.columnGroups());
    TabletDescriptor first = TestTables.whole(TestTables.KV);
    TabletDescriptor second = new TabletDescriptor(again, 3, utf8("x"), null);
    try (StorageEngine e = StorageEngine.open(options())) {
      e.openTablet(first);
      InvalidRequestException refused = assertThrows(InvalidRequestException.class, () -> e.openTablet(second));
      assertTrue(refused.getMessage().contains("tablets of table id " + TestTables.KV.id() + " of that name are served"),
          refused.getMessage());
      e.closeTablet(first.id(), false);
      assertThrows(InvalidRequestException.class, () -> e.openTablets(List.of(second, first)), "both at once");
      e.openTablet(second);
      assertThrows(InvalidRequestException.class, () -> e.openTablet(first), "the other way round");
    }
  }

  @Test
  void openingTabletsThatAreOpenAlreadyChangesNothingAndReplaysNothing() throws Exception {
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      List<Tablet> first = e.openTablets(tablets().subList(0, 2));
      txns.put(first.get(0), utf8("a"), Map.of("v", utf8("x")), Durability.HFLUSH);
      List<Tablet> again = e.openTablets(tablets().subList(0, 3));
      assertSame(first.get(0), again.get(0), "an open tablet stays as it is");
      assertEquals(2, e.recentOpenings().size(), "the second call replayed for the new tablet only");
      assertEquals(1, e.recentOpenings().get(1).tablets());
      assertArrayEquals(utf8("x"), again.get(0).get(utf8("a"), null, LATEST).value("v"));
    }
  }
}
