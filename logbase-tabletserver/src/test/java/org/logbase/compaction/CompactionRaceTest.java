package org.logbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.SnapshotTooOldException;
import org.logbase.common.TransactionConflictException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.log.Durability;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.RowWrite;
import org.logbase.txn.TxnManager;

/**
 * What an independent review of compaction found, each shown failing before its fix: a move's
 * checkpoint racing a compaction's switch lost the writes made after the switch; a transaction that
 * began below the GC horizon committed over a delete that compaction had dropped (no conflict seen);
 * a tablet whose sorted segment cannot be read started empty instead of refusing to open.
 */
class CompactionRaceTest {
  static final TableSchema T = new TableSchema("t", 7, List.of(
      new ColumnGroup(0, "p", List.of("a", "b"), StoragePolicy.DEFAULT)));
  static final TabletDescriptor WHOLE = new TabletDescriptor(T, 0, null, null);

  @TempDir Path dir;
  final AtomicLong wall = new AtomicLong(1_700_000_000_000L);

  EngineOptions options() {
    return EngineOptions.of(dir.toUri(), Config.of(Map.of(TabletCompaction.RETENTION_MS, "5000")), List.of())
        .withClock(new HybridClock(wall::get));
  }

  /**
   * The close's checkpoint waits for a checkpoint round (the test holds the checkpointer's lock, as a
   * round does) while a compaction switches the tablet and writes go on: the checkpoint must be of
   * the groups served then, or the next server misses those writes.
   */
  @Test
  void aMovesCheckpointRacingACompactionsSwitchKeepsTheWritesAfterTheSwitch() throws Exception {
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(WHOLE);
      for (int i = 0; i < 50; i++) {
        txns.put(t, utf8("a" + i), Map.of("a", utf8("v" + i)), Durability.HFLUSH);
      }
      Field f = StorageEngine.class.getDeclaredField("checkpointer");
      f.setAccessible(true);
      Object checkpointer = f.get(e);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread closer;
      synchronized (checkpointer) { // a checkpoint round under way
        closer = new Thread(() -> {
          try {
            e.checkpointBeforeClose(WHOLE.id());
          } catch (Throwable ex) {
            failed.set(ex);
          }
        });
        closer.start();
        while (closer.getState() != Thread.State.BLOCKED) {
          Thread.onSpinWait(); // until the close waits for the lock the test holds
        }
        e.compact(WHOLE.id()); // re-entrant here: the compaction switches first
        for (int i = 0; i < 20; i++) {
          txns.put(e.tabletOrNull(WHOLE.id()), utf8("b" + i), Map.of("a", utf8("w" + i)), Durability.HFLUSH);
        }
      }
      closer.join();
      if (failed.get() != null) {
        throw new AssertionError(failed.get());
      }
      e.closeTablet(WHOLE.id(), false); // the rest of the move; the next owner opens it from the checkpoint
      Tablet next = e.openTablet(WHOLE);
      List<String> lost = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        if (next.get(utf8("b" + i), null, HybridTimestamp.LATEST) == null) {
          lost.add("b" + i);
        }
      }
      for (int i = 0; i < 50; i++) {
        assertNotNull(next.get(utf8("a" + i), null, HybridTimestamp.LATEST), "a" + i);
      }
      assertEquals(List.of(), lost, "acknowledged writes lost after the move");
    }
  }

  @Test
  void aTransactionThatBeganBelowTheHorizonCannotCommitOverADeleteCompactionDropped() throws Exception {
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(WHOLE);
      txns.put(t, utf8("r"), Map.of("a", utf8("v1"), "b", utf8("x")), Durability.HFLUSH);
      wall.addAndGet(10);
      long startTs = e.clock().next(); // the transaction begins
      wall.addAndGet(10);
      txns.delete(t, utf8("r"), Durability.HFLUSH); // deleted after it began
      assertThrows(TransactionConflictException.class, () -> commit(txns, startTs, e.tabletOrNull(WHOLE.id())));
      wall.addAndGet(60_000); // past the 5 s retention window; nothing held
      e.compact(WHOLE.id()); // drops the delete and what it hid
      assertThrows(SnapshotTooOldException.class, () -> commit(txns, startTs, e.tabletOrNull(WHOLE.id())),
          "a transaction that began before a delete must not commit a write of that row after a compaction");
    }
  }

  @Test
  void aTabletWhoseSegmentCannotBeReadRefusesToOpenInsteadOfStartingEmpty() throws Exception {
    try (StorageEngine e = StorageEngine.open(options()); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(WHOLE);
      for (int i = 0; i < 100; i++) {
        txns.put(t, utf8("k" + i), Map.of("a", utf8("v" + i)), Durability.HFLUSH);
      }
      e.compact(WHOLE.id());
      e.compact(WHOLE.id()); // both kept checkpoints name the newest segment's predecessor or it
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.filter(x -> x.getFileName().toString().startsWith("sorted-")).toList()) {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
          f.seek(f.length() - 20); // in the footer
          f.write(0x5A);
        }
      }
    }
    try (StorageEngine e = StorageEngine.open(options())) {
      IOException refused = assertThrows(IOException.class, () -> e.openTablet(WHOLE));
      assertTrue(refused.getMessage().contains("sorted segment"), refused.getMessage());
    }
  }

  private static void commit(TxnManager txns, long startTs, Tablet t) throws Throwable {
    try {
      txns.commit(startTs, List.of(RowWrite.put(t, utf8("r"), Map.of("a", utf8("T")))), Durability.HFLUSH).get();
    } catch (ExecutionException ex) {
      throw ex.getCause();
    }
  }
}
