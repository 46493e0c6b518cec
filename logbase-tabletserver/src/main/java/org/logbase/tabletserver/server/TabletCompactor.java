package org.logbase.tabletserver.server;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.logbase.common.LogBaseException;
import org.logbase.common.Threads;
import org.logbase.compaction.CompactionReport;
import org.logbase.compaction.TabletCompaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the compactions this server is asked for or schedules, one at a time (thread {@code
 * tablet-compactor}, so that neither a gRPC thread nor the tablet opener waits for one), at a lower
 * CPU priority than the server's ({@code compaction.thread.nice}, {@link TabletCompaction#THREAD_NICE}),
 * and keeps the outcome of the last one as one line for the heartbeat: the shell's status shows it.
 */
final class TabletCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(TabletCompactor.class);

  private final ServedTablets tablets;
  private final ExecutorService worker;
  private volatile String lastOutcome = "";

  /** @param nice the worker thread's nice value (1 to 19); 0: the server's */
  TabletCompactor(ServedTablets tablets, int nice) {
    this.tablets = tablets;
    ThreadFactory named = Threads.daemon("tablet-compactor");
    this.worker = Executors.newSingleThreadExecutor(job -> named.newThread(() -> {
      lower(nice);
      job.run();
    }));
  }

  private static void lower(int nice) {
    if (nice == 0) {
      return;
    }
    try {
      Threads.lowerPriority(nice);
      LOG.info("compactions run at nice {} ({})", nice, TabletCompaction.THREAD_NICE);
    } catch (IOException e) {
      LOG.warn("compactions run at the server's CPU priority, not at nice {} ({}): {}", nice,
          TabletCompaction.THREAD_NICE, e.getMessage());
    }
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
