package org.logbase.tablet;

import org.logbase.common.Row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.ColumnNotInSchemaException;
import org.logbase.common.Config;
import org.logbase.common.KeyOutOfRangeException;
import org.logbase.common.ValueTooLargeException;
import org.logbase.log.Durability;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

/** Reads and writes of one tablet on the local file system (RawLocalFileSystem). */
class TabletTest {
  @TempDir Path dir;
  StorageEngine engine;
  TxnManager txns;
  Tablet users;

  @BeforeEach
  void open() throws Exception {
    TabletDescriptor whole = TestTables.whole(TestTables.USERS);
    engine = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty().with("tablet.value.max.bytes", "1k"),
        List.of(whole)));
    users = engine.tablet(whole.id());
    txns = TxnManager.standalone(engine);
  }

  @AfterEach
  void close() throws Exception {
    txns.close();
    engine.close();
  }

  @Test
  void getReturnsNewestAndMergesPartialVersions() throws Exception {
    long t1 = txns.put(users, utf8("alice"), Map.of("name", utf8("Alice"), "email", utf8("a@x")), Durability.HFLUSH);
    long t2 = txns.put(users, utf8("alice"), Map.of("email", utf8("alice@y")), Durability.HSYNC);
    assertTrue(t2 > t1);

    Row now = users.get(utf8("alice"), null, LATEST);
    assertEquals("Alice", utf8(now.value("name")));
    assertEquals("alice@y", utf8(now.value("email")));
    assertEquals(t1, now.cells().get("name").timestamp());
    assertEquals(t2, now.cells().get("email").timestamp());
    assertNull(now.value("visits"));

    Row before = users.get(utf8("alice"), null, t1);
    assertEquals("a@x", utf8(before.value("email")));
    assertNull(users.get(utf8("alice"), null, t1 - 1));

    Row projected = users.get(utf8("alice"), List.of("email"), LATEST);
    assertEquals(Set.of("email"), projected.cells().keySet());
  }

  @Test
  void deleteWritesATombstoneThatOlderSnapshotsLookPast() throws Exception {
    long t1 = txns.put(users, utf8("bob"), Map.of("name", utf8("Bob"), "visits", utf8("3")), Durability.HFLUSH);
    long t2 = txns.delete(users, utf8("bob"), Durability.HFLUSH);
    assertNull(users.get(utf8("bob"), null, LATEST));
    assertEquals("Bob", utf8(users.get(utf8("bob"), null, t1).value("name")));
    long t3 = txns.put(users, utf8("bob"), Map.of("visits", utf8("4")), Durability.HFLUSH);
    Row after = users.get(utf8("bob"), null, LATEST);
    assertEquals(Set.of("visits"), after.cells().keySet(), "the tombstone hides everything older");
    assertEquals(t3, after.cells().get("visits").timestamp());

    List<Version> v = users.versions(utf8("bob"), "stats", LATEST, 0);
    assertEquals(3, v.size());
    assertEquals(t3, v.get(0).timestamp());
    assertTrue(v.get(1).tombstone());
    assertEquals(t2, v.get(1).timestamp());
    assertEquals("3", utf8(v.get(2).columns().get("visits")));
  }

  @Test
  void scanHonoursRangeProjectionSnapshotAndLimit() throws Exception {
    for (int i = 0; i < 50; i++) {
      String k = String.format("row%03d", i);
      txns.put(users, utf8(k), Map.of("name", utf8("n" + i), "score", utf8("s" + i)), Durability.HFLUSH);
    }
    long snapshot = engine.clock().next();
    txns.delete(users, utf8("row010"), Durability.HFLUSH);
    txns.put(users, utf8("row011"), Map.of("score", utf8("new")), Durability.HFLUSH);

    List<Row> rows = users.scan(utf8("row005"), utf8("row015"), null, LATEST, 0);
    assertEquals(9, rows.size(), "row010 is deleted");
    assertEquals("row005", utf8(rows.get(0).key()));
    assertEquals("new", utf8(rows.get(5).value("score")));
    assertEquals("n11", utf8(rows.get(5).value("name")));

    List<Row> old = users.scan(utf8("row005"), utf8("row015"), List.of("score"), snapshot, 0);
    assertEquals(10, old.size());
    assertEquals(Set.of("score"), old.get(5).cells().keySet());
    assertEquals("s10", utf8(old.get(5).value("score")));

    assertEquals(3, users.scan(null, null, List.of("name"), LATEST, 3).size());
    assertEquals(49, users.scan(null, null, null, LATEST, 0).size());
  }

  @Test
  void badInputGetsClearErrors() throws Exception {
    assertThrows(ColumnNotInSchemaException.class,
        () -> txns.put(users, utf8("k"), Map.of("nope", utf8("v")), Durability.HFLUSH));
    assertThrows(ValueTooLargeException.class,
        () -> txns.put(users, utf8("k"), Map.of("name", new byte[2000]), Durability.HFLUSH));
    assertThrows(IllegalArgumentException.class,
        () -> txns.put(users, new byte[0], Map.of("name", utf8("v")), Durability.HFLUSH));
    assertThrows(ColumnNotInSchemaException.class, () -> users.get(utf8("k"), List.of("nope"), LATEST));
    txns.put(users, utf8("k"), Map.of("name", utf8("still works")), Durability.HFLUSH);
    assertArrayEquals(utf8("still works"), users.get(utf8("k"), null, LATEST).value("name"));
  }

  @Test
  void keysOutsideTheTabletAreRefused() throws Exception {
    TabletDescriptor left = new TabletDescriptor(TestTables.USERS, 0, null, utf8("m"));
    Path d2 = dir.resolve("two");
    try (StorageEngine e = StorageEngine.open(EngineOptions.of(d2.toUri(), Config.empty(), List.of(left)));
        TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.tablet(left.id());
      txns.put(t, utf8("a"), Map.of("name", utf8("x")), Durability.HFLUSH);
      assertThrows(KeyOutOfRangeException.class, () -> txns.put(t, utf8("z"), Map.of("name", utf8("x")), Durability.HFLUSH));
      assertEquals(1, t.scan(null, null, null, LATEST, 0).size());
    }
  }
}
