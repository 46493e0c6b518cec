package org.logbase.recovery;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Config;
import org.logbase.common.Threads;
import org.logbase.files.FileRegistry;
import org.logbase.files.ReadsInProgress;
import org.logbase.files.SharedPaths;
import org.logbase.log.LogConfig;
import org.logbase.log.SegmentFiles;
import org.logbase.manifest.Manifests;
import org.logbase.manifest.TabletManifest;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.rpc.FileRef;
import org.logbase.rpc.GroupCheckpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes this server's log segments that no tablet needs any more, as Lucene deletes the files no
 * commit point names. A segment of this log is needed while any tablet manifest in the cluster (whoever
 * serves the tablet, a split's retired parent, a tablet nobody serves now) names it in a checkpoint
 * it keeps: by a data file id (its index entries point into it) or as the segment of, or a segment
 * after, the position its tail is replayed from. Entries added after a checkpoint point at or after
 * its replay position, and the checkpoint watermark never passes a record of a transaction still
 * waiting for its outcome, so a segment below every such position and named by no checkpoint is read
 * by no index, replay or transaction.
 *
 * <p>A segment goes only when two rounds, {@code log.gc.interval.ms} apart (5 minutes), both found it
 * unneeded, and no long read (a scan kept open across calls, {@link ReadsInProgress}) that began
 * before the first of them is still in progress: a get that took a pointer into it before a
 * compaction or a checkpoint moved past it has long ended (one slower than that gets an error, never
 * other data: file ids are never reused), and a scan that may read it keeps it. The first round after
 * a start deletes nothing. The newest segment that holds a record, and every segment
 * after it, stay: a restart continues the log's LSNs from there. A round that cannot read every
 * manifest (one damaged, the file system failing) deletes nothing.
 *
 * <p>Retired split parents do not count: their daughters' manifests hold copies of their
 * checkpoints. Before it deletes its first segment the collector marks the log collected ({@link
 * SegmentFiles#markCollected}): a tablet whose checkpoints are all unusable is then refused rather
 * than rebuilt from the log's start, which no longer holds its whole history. Other servers' logs
 * are left alone, a dead server's included (not collected yet). Manifests of dropped tables do not
 * count either ({@link DroppedTables}; the manifests themselves are not deleted yet).
 */
public final class LogCollector implements Closeable {
  /** Milliseconds between rounds (0: never, except when asked for). */
  public static final String INTERVAL_MS = "log.gc.interval.ms";
  public static final long DEFAULT_INTERVAL_MS = 300_000;
  private static final Logger LOG = LoggerFactory.getLogger(LogCollector.class);

  /**
   * What a round did.
   *
   * @param segments this log's segments when the round began
   * @param unneeded segments no manifest needs now
   * @param deleted segments deleted (unneeded in this round and the one before)
   * @param skipped why the round deleted nothing without looking (null: it looked)
   */
  public record Round(int manifests, int segments, List<Long> unneeded, List<Long> deleted, long bytesDeleted,
      String skipped) {}

  /** Which tables were dropped: their tablets' manifests need nothing any more. */
  @FunctionalInterface
  public interface DroppedTables {
    /** For an engine that is alone: it knows of no drops, and every manifest counts. */
    DroppedTables NONE = Set::of;

    /** Ids of tables dropped so far (a table dropped later may be missing, never one that lives). */
    Set<Integer> ids() throws IOException;
  }

  private final FileSystem fs;
  private final Manifests manifests;
  private final DroppedTables dropped;
  private final Path ownLog;
  private final FileRegistry files;
  private final LogConfig config;
  private final long intervalMs;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("log-gc"));
  private final ReadsInProgress reads;
  /**
   * Segments the round before found unneeded, each with the mark taken by the first round of the
   * chain that found it so: the long reads begun before that mark may still read it.
   */
  private Map<Long, Long> unneededBefore = Map.of();

  public LogCollector(FileSystem fs, Manifests manifests, DroppedTables dropped, Path ownLog, FileRegistry files,
      LogConfig config, Config c, ReadsInProgress reads) {
    this.fs = fs;
    this.reads = reads;
    this.dropped = dropped;
    this.manifests = manifests;
    this.ownLog = fs.makeQualified(ownLog);
    this.files = files;
    this.config = config;
    this.intervalMs = c.getLong(INTERVAL_MS, DEFAULT_INTERVAL_MS);
  }

  /** Starts the rounds (none if the interval is 0). */
  public void start() {
    if (intervalMs > 0) {
      timer.scheduleWithFixedDelay(this::roundQuietly, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }
  }

  private void roundQuietly() {
    try {
      round();
    } catch (IOException | RuntimeException e) {
      LOG.warn("log garbage collection round failed; nothing more is deleted until the next one", e);
    }
  }

  /** One round: finds the unneeded segments, deletes those the round before found unneeded too. */
  public synchronized Round round() throws IOException {
    try {
      return look();
    } catch (IOException | RuntimeException e) {
      unneededBefore = Map.of(); // a round that failed breaks the chain of two in a row
      throw e;
    }
  }

  private Round look() throws IOException {
    List<Long> segments = SegmentFiles.list(fs, ownLog);
    long newest = LogRecovery.newestWithRecord(fs, ownLog, segments, config);
    // It and every later segment stay (without a record anywhere: the newest segment and after).
    long keepFrom = newest >= 0 ? newest : segments.isEmpty() ? Long.MAX_VALUE : segments.get(segments.size() - 1);
    List<TabletManifest> all;
    Set<Integer> droppedTables;
    try {
      droppedTables = dropped.ids(); // before the manifests: a table dropped after this still counts
      all = manifests.readAll();
    } catch (IOException e) {
      unneededBefore = Map.of(); // not known to be unneeded twice in a row any more
      LOG.warn("log garbage collection skipped: {}", e.toString());
      return new Round(0, segments.size(), List.of(), List.of(), 0, e.toString());
    }
    long replayFrom = Long.MAX_VALUE;
    Set<Long> named = new HashSet<>();
    for (TabletManifest m : all) {
      if (m.retired() || droppedTables.contains(m.tablet().tableId())) {
        // A split parent: its daughters' manifests hold copies of its checkpoints (written before
        // it was marked retired), and nothing opens it again. A dropped table: nothing opens it.
        continue;
      }
      for (CheckpointEdit c : m.checkpoints()) {
        if (isOwnLog(c.getLogDir())) {
          replayFrom = Math.min(replayFrom, c.getPositionFile());
        }
        for (GroupCheckpoint g : c.getGroupsList()) {
          named.addAll(g.getFileIdsList());
        }
        for (FileRef f : c.getFilesList()) {
          named.add(f.getId());
        }
      }
    }
    List<Long> unneeded = new ArrayList<>();
    for (long s : segments) {
      if (s < keepFrom && s < replayFrom && !named.contains(s)) {
        unneeded.add(s);
      }
    }
    long mark = reads.mark(); // after the manifests were read: a read begun later cannot use these
    List<Long> deleted = new ArrayList<>();
    int waiting = 0;
    long bytes = 0;
    for (long s : unneeded) {
      Long since = unneededBefore.get(s);
      if (since != null && reads.anyBegunBefore(since)) {
        waiting++;
      } else if (since != null) {
        if (deleted.isEmpty()) {
          SegmentFiles.markCollected(fs, ownLog); // before the first: a replay from the start is no longer complete
        }
        Path p = SegmentFiles.path(ownLog, s);
        long length = fs.getFileStatus(p).getLen();
        if (fs.delete(p, false)) {
          files.forget(s);
          deleted.add(s);
          bytes += length;
        }
      }
    }
    Map<Long, Long> next = new HashMap<>();
    for (long s : unneeded) {
      if (!deleted.contains(s)) {
        next.put(s, unneededBefore.getOrDefault(s, mark));
      }
    }
    unneededBefore = next;
    if (!deleted.isEmpty()) {
      LOG.info("deleted {} log segments ({} bytes) that no tablet needs: {}; {} segments left, {} unneeded waiting",
          deleted.size(), bytes, deleted, segments.size() - deleted.size(), unneeded.size() - deleted.size());
    }
    if (waiting > 0) {
      LOG.info("{} unneeded log segments wait for scans that began before they were found unneeded", waiting);
    }
    return new Round(all.size(), segments.size(), unneeded, deleted, bytes, null);
  }

  private boolean isOwnLog(String logDir) {
    return !logDir.isEmpty() && SharedPaths.same(fs, ownLog, SharedPaths.store(fs, SharedPaths.resolve(fs, logDir)));
  }

  @Override
  public void close() {
    Threads.stop(timer, 30);
  }
}
