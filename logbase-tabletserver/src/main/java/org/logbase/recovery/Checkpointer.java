package org.logbase.recovery;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.logbase.common.Config;
import org.logbase.common.Threads;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier.Watermark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when to checkpoint: an index that took {@value #UPDATES} updates, or has had no
 * checkpoint for {@value #INTERVAL_MS} ms, is checkpointed by a background thread (an index without
 * updates only gets a new manifest, see {@link CheckpointStore#write}); {@link
 * #checkpointAll} does every index on request. One checkpoint runs at a time.
 */
public final class Checkpointer implements Closeable {
  public static final String UPDATES = "checkpoint.updates";
  public static final String INTERVAL_MS = "checkpoint.interval.ms";
  private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

  private final CheckpointStore store;
  private final Supplier<Collection<GroupIndex>> indexes;
  private final Supplier<Watermark> watermark;
  private final long updateThreshold;
  private final long intervalNanos;
  private final ScheduledExecutorService timer;

  /**
   * @param indexes the indexes of the open tablets, read anew for every round
   * @param watermark how far the indexes are complete (the live applier's)
   */
  public Checkpointer(CheckpointStore store, Supplier<Collection<GroupIndex>> indexes, Supplier<Watermark> watermark,
      Config c) {
    this.store = store;
    this.indexes = indexes;
    this.watermark = watermark;
    this.updateThreshold = c.getLong(UPDATES, 1_000_000);
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(c.getLong(INTERVAL_MS, 600_000));
    this.timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("checkpointer"));
  }

  /** Checkpoints the given indexes now (a tablet closing, so its next owner replays little). */
  public synchronized void checkpoint(Collection<GroupIndex> some) throws IOException {
    for (GroupIndex gi : some) {
      store.write(gi, watermark.get());
    }
  }

  /** Starts the background checks (once a second). */
  public void start() {
    timer.scheduleWithFixedDelay(this::checkDue, 1, 1, TimeUnit.SECONDS);
  }

  /** Checkpoints every index now; returns the manifests written. */
  public synchronized List<CheckpointManifest> checkpointAll() throws IOException {
    List<CheckpointManifest> out = new ArrayList<>();
    for (GroupIndex gi : indexes.get()) {
      out.add(store.write(gi, watermark.get()));
    }
    return out;
  }

  private synchronized void checkDue() {
    for (GroupIndex gi : indexes.get()) {
      long updates = gi.updatesSinceCheckpoint();
      // Idle indexes are due by time too: their checkpoint is moved forward without a rewrite.
      if (updates >= updateThreshold || gi.nanosSinceCheckpoint() >= intervalNanos) {
        try {
          store.write(gi, watermark.get());
        } catch (IOException | RuntimeException e) {
          // The log still holds everything; a failed checkpoint only makes recovery longer.
          LOG.warn("checkpoint of {} failed; will retry", gi, e);
        }
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
