package org.logbase.tabletserver.server;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.logbase.common.LogBaseException;
import org.logbase.common.Threads;
import org.logbase.compaction.CompactionReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the compactions the master asks for, one at a time on this server (thread
 * {@code tablet-compactor}, so that neither a gRPC thread nor the tablet opener waits for one), and
 * keeps the outcome of the last one as one line for the heartbeat: the shell's status shows it.
 */
final class TabletCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(TabletCompactor.class);

  private final ServedTablets tablets;
  private final ExecutorService worker = Executors.newSingleThreadExecutor(Threads.daemon("tablet-compactor"));
  private volatile String lastOutcome = "";

  TabletCompactor(ServedTablets tablets) {
    this.tablets = tablets;
  }

  /** Compacts a served tablet after the compactions asked for before it; completes with its report. */
  CompletableFuture<CompactionReport> compact(String table, int tabletId) {
    return CompletableFuture.supplyAsync(() -> run(table, tabletId), worker);
  }

  /** The last compaction's outcome, one line; empty when none ran since the server started. */
  String lastOutcome() {
    return lastOutcome;
  }

  private CompactionReport run(String table, int tabletId) {
    String tablet = table + "/" + tabletId;
    String at = " at " + Instant.now();
    try {
      CompactionReport r = tablets.compact(table, tabletId);
      lastOutcome = tablet + at + ": " + r.bytesIn() + " -> " + r.bytesOut() + " bytes, " + r.versionsIn() + " -> "
          + r.versionsOut() + " versions (" + r.versionsDropped() + " dropped), " + r.segments() + " segments, "
          + r.millis() + " ms";
      LOG.info("compacted tablet {}: {}", tablet, r);
      return r;
    } catch (IOException | RuntimeException e) {
      lastOutcome = tablet + at + ": failed: " + e.getMessage();
      throw e instanceof RuntimeException r ? r
          : new LogBaseException("compaction of tablet " + tablet + " failed: " + e.getMessage(), e);
    }
  }
}
