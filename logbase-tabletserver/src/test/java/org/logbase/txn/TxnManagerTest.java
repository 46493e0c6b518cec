package org.logbase.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.Row;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.logbase.log.Durability;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.TestTables;

/**
 * The transaction layer of one server over a real storage engine (local file system): commit,
 * validation, two-phase commit, and prepared transactions surviving a restart as locks.
 */
class TxnManagerTest {
  static final TabletDescriptor USERS = TestTables.whole(TestTables.USERS);
  static final String PRIMARY_TABLE = "users";
  @TempDir Path dir;
  final HybridClock clock = new HybridClock();
  StorageEngine engine;
  TxnManager txns;
  Tablet tablet;

  void open() throws Exception {
    engine = StorageEngine.open(EngineOptions.of(dir.toUri(), Config.empty(), List.of()).withClock(clock));
    tablet = engine.openTablet(USERS);
    txns = new TxnManager(engine, new LocalLockManager(), clock, (table, key) -> tablet,
        (txn, table, key) -> { throw new AssertionError("the primary is local"); },
        new TxnSettings(60_000, 5_000, true, true));
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

  RowWrite put(String key, String value) {
    return RowWrite.put(tablet, utf8(key), Map.of("name", utf8(value)));
  }

  String name(String key, long asOf) throws Exception {
    Row r = tablet.get(utf8(key), List.of("name"), asOf);
    return r == null ? null : new String(r.value("name"), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void firstCommitterWinsAndALaterSnapshotSeesTheWinner() throws Exception {
    open();
    long t1 = clock.next();
    long t2 = clock.next();
    long c1 = txns.commit(t1, List.of(put("a", "one")), Durability.HFLUSH).get();
    assertThrows(TransactionConflictException.class, () -> txns.commit(t2, List.of(put("a", "two")), Durability.HFLUSH));
    assertEquals("one", name("a", LATEST));
    assertNull(name("a", c1 - 1), "not visible below its commit timestamp");
    assertTrue(txns.locks().isEmpty(), "no lock left");
  }

  @Test
  void aPreparedTransactionIsInvisibleAndLockedUntilDecided() throws Exception {
    open();
    long t = clock.next();
    txns.prepare(t, List.of(put("a", "prepared")), PRIMARY_TABLE, utf8("a"), Durability.HFLUSH).get();
    assertNull(name("a", LATEST), "prepared data is not in the index");
    assertEquals(1, txns.locks().size());
    long other = clock.next();
    assertThrows(TransactionConflictException.class, () -> txns.commit(other, List.of(put("a", "x")), Durability.HFLUSH));
    long commitTs = clock.next();
    txns.decide(t, true, commitTs, PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH).get();
    assertEquals("prepared", name("a", LATEST));
    assertEquals(commitTs, tablet.get(utf8("a"), null, LATEST).cells().get("name").timestamp());
    assertTrue(txns.locks().isEmpty());
  }

  @Test
  void aBatchThatMustNotWaitIsRefusedWholeByAPreparedRowAndWritesNothing() throws Exception {
    open();
    long t = clock.next();
    txns.prepare(t, List.of(put("a", "prepared")), PRIMARY_TABLE, utf8("a"), Durability.HFLUSH).get();
    // Coalesced writes of several callers: refused at once, not after the 5 s lock wait.
    assertThrows(org.logbase.common.RowLockedException.class,
        () -> txns.write(new WriteBatch().add(put("a", "x")).add(put("b", "y")), Durability.HFLUSH, true));
    assertNull(name("b", LATEST), "nothing of the refused batch was written");
    assertEquals(1, txns.locks().size(), "the refused batch left no lock");
    // Sent alone, the unrelated row goes through at once.
    txns.write(new WriteBatch().add(put("b", "y")), Durability.HFLUSH, true).get();
    assertEquals("y", name("b", LATEST));
    txns.decide(t, true, clock.next(), PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH).get();
  }

  @Test
  void preparedTransactionsComeBackAsLocksAfterARestartAndCanStillCommit() throws Exception {
    open();
    long t = clock.next();
    txns.prepare(t, List.of(put("a", "A"), put("b", "B")), PRIMARY_TABLE, utf8("a"), Durability.HFLUSH).get();
    engine.checkpoint(); // the checkpoint must not cover the undecided records
    restart();
    assertEquals(2, txns.locks().size(), "both rows locked again");
    assertTrue(txns.locks().stream().allMatch(h -> h.holder().prepared() && h.holder().txnId() == t));
    assertNull(name("a", LATEST));
    restart(); // twice: the restored records must survive the next recovery too
    assertEquals(2, txns.locks().size());
    long commitTs = clock.next();
    txns.decide(t, true, commitTs, PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH).get();
    assertEquals("A", name("a", LATEST));
    assertEquals("B", name("b", LATEST));
    restart();
    assertEquals("B", name("b", LATEST), "the decision survives a restart");
    assertTrue(txns.locks().isEmpty());
  }

  @Test
  void thePrimaryResolvesAnInDoubtTransactionAsAbortedAndALateCommitFails() throws Exception {
    open();
    long t = clock.next();
    txns.prepare(t, List.of(put("a", "A")), PRIMARY_TABLE, utf8("a"), Durability.HFLUSH).get();
    restart();
    assertEquals(TxnManager.Outcome.ABORTED, txns.resolve(t, PRIMARY_TABLE, utf8("a")));
    assertTrue(txns.locks().isEmpty());
    TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
        () -> txns.decide(t, true, clock.next(), PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH));
    assertNotNull(e.getMessage());
    assertNull(name("a", LATEST));
  }

  @Test
  void aResolverLearnsACommitFromThePrimaryRowAfterTheFact() throws Exception {
    open();
    long t = clock.next();
    txns.prepare(t, List.of(put("a", "A")), PRIMARY_TABLE, utf8("a"), Durability.HFLUSH).get();
    long commitTs = clock.next();
    txns.decide(t, true, commitTs, PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH).get();
    restart();
    assertEquals(new TxnManager.Outcome(true, commitTs), txns.resolve(t, PRIMARY_TABLE, utf8("a")));
    // A repeated commit of the primary (an answer lost on the way) is accepted.
    txns.decide(t, true, commitTs, PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH).get(10, TimeUnit.SECONDS);
  }

  @Test
  void aSnapshotReaderWaitsForALockThatMayCommitBelowItsSnapshot() throws Exception {
    open();
    long t = clock.next();
    txns.prepare(t, List.of(put("a", "A")), PRIMARY_TABLE, utf8("a"), Durability.HFLUSH).get();
    long commitTs = clock.next();
    long snapshot = clock.next();
    CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
      txns.awaitReadable(USERS.schema().id(), utf8("a"), snapshot);
      try {
        return name("a", snapshot);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    txns.awaitReadable(USERS.schema().id(), utf8("a"), t); // a snapshot at or below the start does not wait
    // Blocked while the lock is held (with the rule off this would return null at once).
    assertThrows(java.util.concurrent.TimeoutException.class, () -> reader.get(300, TimeUnit.MILLISECONDS));
    txns.decide(t, true, commitTs, PRIMARY_TABLE, utf8("a"), true, Durability.HFLUSH).get();
    assertEquals("A", reader.get(10, TimeUnit.SECONDS), "the reader saw the commit below its snapshot");
  }
}
