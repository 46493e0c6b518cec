package org.logbase.tabletserver.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.logbase.common.Config;
import org.logbase.common.Threads;
import org.logbase.compaction.CompactionReport;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts this server's tablets without being asked, one at a time, through the same thread as
 * the compactions the master asks for ({@link TabletCompactor}). Every {@code
 * compaction.check.interval.ms} it picks, of the tablets due, the one with the most versions not
 * compacted yet (in its in-memory index): due when that number reaches {@code
 * compaction.unsorted.versions}, or when it has any and the tablet was last compacted (or opened
 * here, or this server started) {@code compaction.interval.ms} ago. A check while a compaction this
 * scheduler started still runs does nothing.
 */
final class CompactionScheduler implements AutoCloseable {
  static final String UNSORTED_VERSIONS = "compaction.unsorted.versions";
  static final long DEFAULT_UNSORTED_VERSIONS = 2_000_000;
  static final String INTERVAL_MS = "compaction.interval.ms";
  static final long DEFAULT_INTERVAL_MS = 24L * 3600 * 1000;
  static final String CHECK_MS = "compaction.check.interval.ms";
  static final long DEFAULT_CHECK_MS = 60_000;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionScheduler.class);

  private final ServedTablets tablets;
  private final TabletCompactor compactor;
  private final long unsortedVersions;
  private final long intervalNanos;
  private final long checkMs;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      Threads.daemon("compaction-scheduler"));
  /** When each served tablet was last compacted or first seen (scheduler thread only). */
  private final Map<TabletId, Long> since = new HashMap<>();
  private CompletableFuture<CompactionReport> running = CompletableFuture.completedFuture(null);

  CompactionScheduler(ServedTablets tablets, TabletCompactor compactor, Config c) {
    this.tablets = tablets;
    this.compactor = compactor;
    this.unsortedVersions = c.getLong(UNSORTED_VERSIONS, DEFAULT_UNSORTED_VERSIONS);
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(c.getLong(INTERVAL_MS, DEFAULT_INTERVAL_MS));
    this.checkMs = c.getLong(CHECK_MS, DEFAULT_CHECK_MS);
    if (unsortedVersions < 0 || intervalNanos < 0 || checkMs < 1) {
      throw new IllegalArgumentException(UNSORTED_VERSIONS + " and " + INTERVAL_MS + " must be at least 0 (0: off), "
          + CHECK_MS + " at least 1");
    }
  }

  void start() {
    timer.scheduleWithFixedDelay(this::check, checkMs, checkMs, TimeUnit.MILLISECONDS);
  }

  private void check() {
    if (!running.isDone() || !tablets.isServing()) {
      return;
    }
    long now = System.nanoTime();
    Set<TabletId> served = tablets.all().stream().map(t -> t.descriptor().id()).collect(Collectors.toSet());
    since.keySet().retainAll(served);
    Tablet pick = null;
    long most = 0;
    for (Tablet t : tablets.all()) {
      long unsorted = t.unsortedVersions();
      long at = since.computeIfAbsent(t.descriptor().id(), id -> now);
      boolean due = (unsortedVersions > 0 && unsorted >= unsortedVersions)
          || (intervalNanos > 0 && unsorted > 0 && now - at >= intervalNanos);
      if (due && unsorted > most) {
        pick = t;
        most = unsorted;
      }
    }
    if (pick == null) {
      return;
    }
    TabletId id = pick.descriptor().id();
    since.put(id, now);
    LOG.info("compacting tablet {}: {} versions not compacted yet ({} {}, {} {} ms)", pick.descriptor(), most,
        UNSORTED_VERSIONS, unsortedVersions, INTERVAL_MS, TimeUnit.NANOSECONDS.toMillis(intervalNanos));
    running = compactor.compact(pick.descriptor().schema().name(), id.tabletId());
    running.whenComplete((r, e) -> {
      if (e != null) {
        LOG.warn("scheduled compaction of {} failed: {}", id, e.toString());
      }
    });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
