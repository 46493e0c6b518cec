package org.logbase.recovery;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.logbase.common.Config;
import org.logbase.common.Threads;
import org.logbase.manifest.ManifestFencedException;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier.Watermark;
import org.logbase.tablet.TabletDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when to checkpoint a tablet: when it has none yet, when one of its indexes took {@value
 * #UPDATES} updates, or when it has had no checkpoint for {@value #INTERVAL_MS} ms (an idle index
 * keeps its file; only the manifest moves forward, see {@link TabletCheckpoints#write}). A background
 * thread checks once a second; {@link #checkpointAll} does every tablet on request. One checkpoint
 * runs at a time. A tablet whose manifest another server has written since this one opened it (it
 * was taken over while this server was cut off) is not tried again by the background checks while
 * it stays open here: each try would only be refused again.
 */
public final class Checkpointer implements Closeable {
  public static final String UPDATES = "checkpoint.updates";
  public static final String INTERVAL_MS = "checkpoint.interval.ms";
  private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

  private final TabletCheckpoints checkpoints;
  private final Supplier<Collection<GroupIndex[]>> tablets;
  private final Supplier<Watermark> watermark;
  private final long updateThreshold;
  private final long intervalNanos;
  private final ScheduledExecutorService timer;
  /** Open tablets (their indexes, by identity) whose checkpoint was fenced; the checks pass them over. */
  private final Set<GroupIndex[]> fenced = Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * @param tablets the indexes of each open tablet (by column-group id), read anew for every round
   * @param watermark how far the indexes are complete (the live applier's)
   */
  public Checkpointer(TabletCheckpoints checkpoints, Supplier<Collection<GroupIndex[]>> tablets,
      Supplier<Watermark> watermark, Config c) {
    this.checkpoints = checkpoints;
    this.tablets = tablets;
    this.watermark = watermark;
    this.updateThreshold = c.getLong(UPDATES, 1_000_000);
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(c.getLong(INTERVAL_MS, 600_000));
    this.timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("checkpointer"));
  }

  /** Checkpoints one tablet now (it is closing, so its next owner replays little). */
  public synchronized CheckpointEdit checkpoint(GroupIndex[] groups) throws IOException {
    return checkpoints.write(descriptor(groups), groups, watermark.get());
  }

  /** An action on the open tablets that no checkpoint may overlap. */
  @FunctionalInterface
  public interface Exclusive {
    void run() throws IOException;
  }

  /**
   * Runs {@code action} (a tablet leaving the open tablets) between rounds: a round reads the open
   * tablets once at its start, so a tablet closed while one runs would still be checkpointed by it,
   * and a checkpoint written after its next server took it over would name this server's log.
   */
  public synchronized void exclusive(Exclusive action) throws IOException {
    action.run();
  }

  /** Starts the background checks (once a second). */
  public void start() {
    timer.scheduleWithFixedDelay(this::checkDue, 1, 1, TimeUnit.SECONDS);
  }

  /** Checkpoints every tablet now; returns the checkpoints now newest. */
  public synchronized List<CheckpointEdit> checkpointAll() throws IOException {
    List<CheckpointEdit> out = new ArrayList<>();
    for (GroupIndex[] groups : tablets.get()) {
      out.add(checkpoint(groups));
    }
    checkpoints.deleteRetiredSegments();
    return out;
  }

  private synchronized void checkDue() {
    Collection<GroupIndex[]> open = tablets.get();
    Set<GroupIndex[]> stillOpen = Collections.newSetFromMap(new IdentityHashMap<>());
    stillOpen.addAll(open);
    fenced.retainAll(stillOpen); // a tablet opened here again has indexes of its own
    for (GroupIndex[] groups : open) {
      if (Thread.currentThread().isInterrupted()) {
        return; // closing: the rest waits for the next start
      }
      if (fenced.contains(groups)) {
        continue;
      }
      TabletDescriptor d = descriptor(groups);
      try {
        if (isDue(groups) || !checkpoints.hasCheckpoint(d)) {
          checkpoint(groups);
        }
      } catch (ManifestFencedException e) {
        fenced.add(groups);
        LOG.warn("checkpoint of {} refused, not tried again while the tablet is open here: {}", d, e.getMessage());
      } catch (IOException | RuntimeException e) {
        // The log still holds everything; a failed checkpoint only makes recovery longer.
        LOG.warn("checkpoint of {} failed; will retry", d, e);
      }
    }
    try {
      checkpoints.deleteRetiredSegments(); // those whose scans ended since
    } catch (IOException | RuntimeException e) {
      LOG.warn("deleting sorted segments no checkpoint names failed; will retry: {}", e.toString());
    }
  }

  private boolean isDue(GroupIndex[] groups) {
    for (GroupIndex gi : groups) {
      // Idle indexes are due by time too: their checkpoint is moved forward without a rewrite.
      if (gi != null && (gi.updatesSinceCheckpoint() >= updateThreshold || gi.nanosSinceCheckpoint() >= intervalNanos)) {
        return true;
      }
    }
    return false;
  }

  private static TabletDescriptor descriptor(GroupIndex[] groups) {
    for (GroupIndex gi : groups) {
      if (gi != null) {
        return gi.tablet();
      }
    }
    throw new IllegalArgumentException("a tablet without column groups");
  }

  @Override
  public void close() {
    Threads.stop(timer, 30);
  }
}
