package org.logbase.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.log.Durability;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.PausingFileSystem;
import org.logbase.testing.TestTables;

/**
 * A tablet opened while transactions run on the server's other tablets (what a restarted server
 * does: the master opens its tablets one by one while clients already use the first). Opening
 * replays the log up to where the live path stood; a transaction prepared before that point and
 * decided while the replay runs must not come back as "prepared": before the fix it was locked
 * again and then aborted by its own primary after it had committed, so its secondaries dropped
 * their half (issue #8).
 */
class TabletOpenRaceTest {
  static final TabletDescriptor USERS = TestTables.whole(TestTables.USERS);
  static final TabletDescriptor KV = TestTables.whole(TestTables.KV);
  @TempDir Path dir;
  final HybridClock clock = new HybridClock();
  StorageEngine engine;
  PausingFileSystem pausing;
  TxnManager txns;

  void open() throws Exception {
    engine = StorageEngine.open(new EngineOptions(dir.toUri(), Config.empty(), new Configuration(), List.of(), clock,
        fs -> pausing = new PausingFileSystem(fs), true));
    txns = new TxnManager(engine, new LocalLockManager(), clock, this::find,
        (txn, table, key) -> { throw new AssertionError("every primary is local"); },
        new TxnSettings(60_000, 5_000, true, true));
  }

  /** Opens a tablet as the tablet server does. */
  void openTablet(TabletDescriptor d) throws Exception {
    engine.openTablet(d);
  }

  Tablet find(String table, byte[] key) {
    return engine.tablets().stream()
        .filter(t -> t.descriptor().schema().name().equals(table) && t.descriptor().contains(key))
        .findFirst().orElse(null);
  }

  /** Stops without deciding anything: what a crash leaves (every acknowledged record is in the log). */
  void restart() throws Exception {
    txns.close();
    engine.close();
    open();
  }

  @AfterEach
  void close() throws Exception {
    if (txns != null) {
      txns.close();
    }
    if (engine != null) {
      engine.close();
    }
  }

  RowWrite user(String key, String value) {
    return RowWrite.put(find("users", utf8(key)), utf8(key), Map.of("name", utf8(value)));
  }

  RowWrite kv(String key, String value) {
    return RowWrite.put(find("kv", utf8(key)), utf8(key), Map.of("v", utf8(value)));
  }

  long timestampOf(String table, String column, String key) throws Exception {
    Row r = find(table, utf8(key)).get(utf8(key), List.of(column), LATEST);
    assertNotNull(r, table + "/" + key + " is visible");
    return r.cells().get(column).timestamp();
  }

  /** Opens {@code d} with its replay held at its first segment while {@code meanwhile} runs. */
  void openWhile(TabletDescriptor d, ThrowingRunnable meanwhile) throws Exception {
    PausingFileSystem.Pause pause = pausing.pauseNextOpen("/log/");
    CompletableFuture<Void> opening = CompletableFuture.runAsync(() -> {
      try {
        openTablet(d);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    pause.awaitReached();
    try {
      meanwhile.run();
    } finally {
      pause.release();
    }
    opening.get(60, TimeUnit.SECONDS);
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void aTransactionCommittedWhileAnotherTabletOpensStaysCommitted() throws Exception {
    open();
    openTablet(USERS);
    long t = clock.next();
    txns.prepare(t, List.of(user("a", "x")), "users", utf8("a"), Durability.HFLUSH).get();
    long commitTs = clock.next();
    openWhile(KV, () -> txns.decide(t, true, commitTs, "users", utf8("a"), true, Durability.HFLUSH).get());

    assertEquals(new TxnManager.Outcome(true, commitTs), txns.resolve(t, "users", utf8("a")),
        "the primary answers committed to a secondary that asks");
    assertEquals(List.of(), txns.locks(), "a decided transaction holds no lock");
    assertEquals(commitTs, timestampOf("users", "name", "a"));
  }

  @Test
  void aRecoveredTransactionDecidedWhileItsSecondTabletOpensKeepsBothHalves() throws Exception {
    open();
    openTablet(USERS);
    openTablet(KV);
    long t = clock.next();
    txns.prepare(t, List.of(user("a", "x"), kv("b", "y")), "users", utf8("a"), Durability.HFLUSH).get();
    restart();
    openTablet(USERS);
    long commitTs = clock.next();
    // The coordinator's retried commit reaches the primary while the tablet of the other half opens.
    openWhile(KV, () -> txns.decide(t, true, commitTs, "users", utf8("a"), true, Durability.HFLUSH).get());

    assertEquals(List.of(), txns.locks(), "a decided transaction holds no lock");
    assertEquals(commitTs, timestampOf("users", "name", "a"));
    assertEquals(commitTs, timestampOf("kv", "v", "b"), "the half in the tablet that was opening is there too");
    assertEquals(new TxnManager.Outcome(true, commitTs), txns.resolve(t, "users", utf8("a")));

    restart();
    openTablet(USERS);
    openTablet(KV);
    assertEquals(commitTs, timestampOf("users", "name", "a"), "after another restart");
    assertEquals(commitTs, timestampOf("kv", "v", "b"), "after another restart");
    assertEquals(List.of(), txns.locks());
  }
}
