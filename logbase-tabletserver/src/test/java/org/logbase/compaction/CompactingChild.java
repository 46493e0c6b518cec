package org.logbase.compaction;

import static org.logbase.common.Bytes.utf8;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.logbase.common.Config;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.recovery.Checkpointer;
import org.logbase.recovery.LogCollector;
import org.logbase.tablet.Tablet;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.TxnManager;

/**
 * A process that writes {@link CompactionCrashTest#op}s and then compacts while it goes on writing,
 * on a file system that stops it at one moment of the compaction ({@link CrashingFileSystem}). It
 * prints {@code ACKED n} once op n is durable, and {@code AT <moment>} when it stops.
 *
 * <p>Arguments: the engine's root URI, the moment.
 */
public final class CompactingChild {
  private CompactingChild() {}

  public static void main(String[] args) throws Exception {
    URI root = URI.create(args[0]);
    CrashingFileSystem.Moment moment = CrashingFileSystem.Moment.valueOf(args[1]);
    Config config = Config.of(Map.of(Checkpointer.UPDATES, "100000000", Checkpointer.INTERVAL_MS, "100000000",
        TabletCompaction.RETENTION_MS, "0", TabletCompaction.TXN_RETENTION_MS, "0",
        // Chunks of about a hundred versions: a compaction reads the index in many.
        TabletCompaction.CHUNK_BYTES, "48k",
        // Log segments of 64 KiB: after each compaction the log's garbage collection (two rounds,
        // run here) finds whole segments that no tablet needs.
        LogConfig.SEGMENT_BYTES, "64k", LogCollector.INTERVAL_MS, "0"));
    EngineOptions o = EngineOptions.of(root, config, List.of()).withFileSystem(fs -> new CrashingFileSystem(fs, moment));
    try (StorageEngine e = StorageEngine.open(o); TxnManager txns = TxnManager.standalone(e)) {
      Tablet t = e.openTablet(CompactionCrashTest.WHOLE);
      int n = 0;
      for (; n < CompactionCrashTest.BEFORE; n++) {
        apply(txns, t, n);
      }
      // Compactions one after the other (the third deletes the first's segment), writes going on
      // until they end (or stop at the moment: then until the kill).
      for (int round = 0; round < 4; round++) {
        CompletableFuture<CompactionReport> compaction = CompletableFuture.supplyAsync(() -> {
          try {
            return e.compact(CompactionCrashTest.WHOLE.id());
          } catch (Exception ex) {
            throw new IllegalStateException(ex);
          }
        });
        for (; !compaction.isDone() && n < CompactionCrashTest.MAX_OPS; n++) {
          apply(txns, e.tabletOrNull(CompactionCrashTest.WHOLE.id()), n);
        }
        compaction.join();
        e.collectLogGarbage();
        e.collectLogGarbage();
      }
      System.out.println("COMPACTED");
      System.out.flush();
      new CountDownLatch(1).await(); // the moment comes in the compaction: never reached, the test kills first
    }
  }

  private static void apply(TxnManager txns, Tablet t, int n) throws Exception {
    CompactionCrashTest.Op op = CompactionCrashTest.op(n);
    if (op.value() == null) {
      txns.delete(t, utf8(op.key()), Durability.HFLUSH);
    } else {
      txns.put(t, utf8(op.key()), Map.of("v", op.value()), Durability.HFLUSH);
    }
    System.out.println("ACKED " + n);
    System.out.flush();
  }
}
