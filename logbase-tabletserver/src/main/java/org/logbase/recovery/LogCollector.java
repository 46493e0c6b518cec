package org.logbase.recovery;

import java.io.Closeable;
import java.io.FileNotFoundException;
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
 * than rebuilt from the log's start, which no longer holds its whole history. Manifests of dropped
 * tables do not count either ({@link DroppedTables}; the manifests themselves are not deleted yet).
 *
 * <p>The logs of servers that are gone ({@link GoneLogs}: in a cluster, those not registered) are
 * collected by every live server with the same rules, so a server that never comes back does not
 * keep its log for ever; a deletion another server made first is skipped, and a gone log that
 * cannot be read is left for the round without failing it. Their newest segment holding a record
 * stays, as this log's does, for a writer that comes back under the same id. Reads in progress are
 * known per server only, and the new owners of a gone server's tablets may still scan its log: a
 * gone log's segment also waits {@code log.gc.gone.grace.ms} (an hour) after it was first found
 * unneeded. A scan that began before and runs longer gets an error, never other data (file ids are
 * never reused), as a scan on another server reading this server's own log would.
 */
public final class LogCollector implements Closeable {
  /** Milliseconds between rounds (0: never, except when asked for). */
  public static final String INTERVAL_MS = "log.gc.interval.ms";
  public static final long DEFAULT_INTERVAL_MS = 300_000;
  /**
   * How long a segment of a gone server's log stays after it was first found unneeded. Scans on
   * other servers (the new owners of its tablets) may still read it: this server knows its own reads
   * in progress only. A scan that began before and runs longer gets an error, never other data.
   */
  public static final String GONE_GRACE_MS = "log.gc.gone.grace.ms";
  public static final long DEFAULT_GONE_GRACE_MS = 3_600_000;
  private static final Logger LOG = LoggerFactory.getLogger(LogCollector.class);

  /**
   * What a round did.
   *
   * @param segments segments of the logs looked at (this server's, and gone servers' that could be read)
   * @param unneeded segments no manifest needs now
   * @param deleted segments deleted (unneeded in this round and the one before)
   * @param goneLogs logs of gone servers the round looked at besides this server's
   * @param skipped why the round deleted nothing without looking (null: it looked)
   */
  public record Round(int manifests, int segments, List<Long> unneeded, List<Long> deleted, long bytesDeleted,
      int goneLogs, String skipped) {}

  /** Which tables were dropped: their tablets' manifests need nothing any more. */
  @FunctionalInterface
  public interface DroppedTables {
    /** For an engine that is alone: it knows of no drops, and every manifest counts. */
    DroppedTables NONE = Set::of;

    /** Ids of tables dropped so far (a table dropped later may be missing, never one that lives). */
    Set<Integer> ids() throws IOException;
  }

  /** The logs of servers that are gone, which this server collects as it collects its own. */
  @FunctionalInterface
  public interface GoneLogs {
    /** For an engine that is alone: it cannot tell a gone server's log from a live one's, and collects none. */
    GoneLogs NONE = List::of;

    /**
     * Log directories whose writer is gone for good as far as this server can tell (its server is not
     * registered); a log whose writer comes back must be absent. Its next writer continues from its
     * newest record, which the collector keeps.
     */
    List<Path> logs() throws IOException;
  }

  private final FileSystem fs;
  private final Manifests manifests;
  private final DroppedTables dropped;
  private final GoneLogs goneLogs;
  private final Path ownLog;
  private final FileRegistry files;
  private final LogConfig config;
  private final long intervalMs;
  private final long goneGraceNanos;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("log-gc"));
  private final ReadsInProgress reads;
  /**
   * Segments the round before found unneeded, each with the mark taken by the first round of the
   * chain that found it so: the long reads begun before that mark may still read it.
   */
  private Map<Long, Unneeded> unneededBefore = Map.of();

  public LogCollector(FileSystem fs, Manifests manifests, DroppedTables dropped, GoneLogs goneLogs, Path ownLog,
      FileRegistry files, LogConfig config, Config c, ReadsInProgress reads) {
    this.fs = fs;
    this.reads = reads;
    this.dropped = dropped;
    this.goneLogs = goneLogs;
    this.manifests = manifests;
    this.ownLog = fs.makeQualified(ownLog);
    this.files = files;
    this.config = config;
    this.intervalMs = c.getLong(INTERVAL_MS, DEFAULT_INTERVAL_MS);
    long graceMs = c.getLong(GONE_GRACE_MS, DEFAULT_GONE_GRACE_MS);
    if (intervalMs < 0 || graceMs < 0) {
      throw new IllegalArgumentException(INTERVAL_MS + " and " + GONE_GRACE_MS + " must be at least 0");
    }
    this.goneGraceNanos = TimeUnit.MILLISECONDS.toNanos(graceMs);
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
    // Every log is listed, and its newest record found, before the manifests are read: a segment
    // that held no record yet when listed is not a candidate, and a tablet that writes to it later
    // names its log before (as it did when the manifests were read after the listing).
    List<Listed> logs = new ArrayList<>();
    logs.add(listed(ownLog, true));
    List<Path> gone = List.of();
    try {
      gone = goneLogs.logs();
    } catch (IOException | RuntimeException e) {
      LOG.warn("log garbage collection round leaves gone servers' logs alone: {}", e.toString());
    }
    for (Path g : gone) {
      try {
        Path log = fs.makeQualified(g);
        if (!log.equals(ownLog)) {
          logs.add(listed(log, false));
        }
      } catch (IOException | RuntimeException e) {
        // One gone log that cannot be read (its last block on DataNodes that are down, a permission)
        // keeps neither this server's nor the other gone logs from being collected.
        LOG.warn("log garbage collection leaves the gone server's log {} for this round: {}", g, e.toString());
      }
    }
    int segments = logs.stream().mapToInt(l -> l.segments().size()).sum();
    List<TabletManifest> all;
    Set<Integer> droppedTables;
    try {
      droppedTables = dropped.ids(); // before the manifests: a table dropped after this still counts
      all = manifests.readAll();
    } catch (IOException e) {
      unneededBefore = Map.of(); // not known to be unneeded twice in a row any more
      LOG.warn("log garbage collection skipped: {}", e.toString());
      return new Round(0, segments, List.of(), List.of(), 0, logs.size() - 1, e.toString());
    }
    Map<String, Long> replayFrom = new HashMap<>(); // by log directory as manifests store it
    Set<Long> named = new HashSet<>();
    for (TabletManifest m : all) {
      if (m.retired() || droppedTables.contains(m.tablet().tableId())) {
        // A split parent: its daughters' manifests hold copies of its checkpoints (written before
        // it was marked retired), and nothing opens it again. A dropped table: nothing opens it.
        continue;
      }
      for (CheckpointEdit c : m.checkpoints()) {
        if (!c.getLogDir().isEmpty()) {
          replayFrom.merge(SharedPaths.store(fs, SharedPaths.resolve(fs, c.getLogDir())), c.getPositionFile(), Math::min);
        }
        for (GroupCheckpoint g : c.getGroupsList()) {
          named.addAll(g.getFileIdsList());
        }
        for (FileRef f : c.getFilesList()) {
          named.add(f.getId());
        }
      }
    }
    Unneeded mark = new Unneeded(reads.mark(), System.nanoTime()); // after the manifests were read
    Map<Long, Unneeded> next = new HashMap<>();
    List<Long> unneeded = new ArrayList<>();
    List<Long> deleted = new ArrayList<>();
    long bytes = 0;
    int waiting = 0;
    for (Listed l : logs) {
      List<Long> unneededHere = new ArrayList<>();
      for (long s : l.segments()) {
        if (s < l.keepFrom() && s < replayFrom.getOrDefault(SharedPaths.store(fs, l.log()), Long.MAX_VALUE)
            && !named.contains(s)) {
          unneededHere.add(s);
        }
      }
      List<Long> deletedHere = new ArrayList<>();
      long bytesHere = 0;
      int waitingHere = 0;
      try {
        for (long s : unneededHere) {
          Unneeded since = unneededBefore.get(s);
          if (since == null) {
            continue; // one round alone deletes nothing
          }
          if (reads.anyBegunBefore(since.mark()) || !l.own() && mark.nanos() - since.nanos() < goneGraceNanos) {
            waitingHere++;
            continue;
          }
          long length = delete(l.log(), s, deletedHere.isEmpty());
          if (length >= 0) {
            deletedHere.add(s);
            bytesHere += length;
          }
        }
      } catch (IOException | RuntimeException e) {
        if (l.own()) {
          throw e; // the round fails: the chain of two starts again
        }
        LOG.warn("log garbage collection leaves the gone server's log {} for this round after deleting {}: {}",
            l.log(), deletedHere, e.toString());
        continue; // its chain starts again
      }
      unneeded.addAll(unneededHere);
      deleted.addAll(deletedHere);
      bytes += bytesHere;
      waiting += waitingHere;
      for (long s : unneededHere) {
        if (!deletedHere.contains(s)) {
          next.put(s, unneededBefore.getOrDefault(s, mark));
        }
      }
      if (!deletedHere.isEmpty()) {
        LOG.info("deleted {} segments of {} log {} that no tablet needs: {}; {} segments left, {} unneeded waiting",
            deletedHere.size(), l.own() ? "this server's" : "the gone server's", l.log(), deletedHere,
            l.segments().size() - deletedHere.size(), unneededHere.size() - deletedHere.size());
      }
    }
    unneededBefore = next;
    if (waiting > 0) {
      LOG.info("{} unneeded log segments wait for scans that began before they were found unneeded, or for {} ms"
          + " since then (gone servers' logs)", waiting, TimeUnit.NANOSECONDS.toMillis(goneGraceNanos));
    }
    return new Round(all.size(), segments, unneeded, deleted, bytes, logs.size() - 1, null);
  }

  /**
   * A log's segments, and the first that stays whatever the manifests say: the newest holding a
   * record (the log's next writer continues its LSNs from there), or the newest if none holds one.
   */
  private Listed listed(Path log, boolean own) throws IOException {
    List<Long> segments = SegmentFiles.list(fs, log);
    long newest = LogRecovery.newestWithRecord(fs, log, segments, config);
    long keepFrom = newest >= 0 ? newest : segments.isEmpty() ? Long.MAX_VALUE : segments.get(segments.size() - 1);
    return new Listed(log, own, segments, keepFrom);
  }

  /** A log as a round listed it before reading the manifests. */
  private record Listed(Path log, boolean own, List<Long> segments, long keepFrom) {}

  /**
   * Deletes segment {@code s} of {@code log}, after marking the log collected if {@code first};
   * returns its length, or -1 if another server deleted it first (a gone server's log).
   */
  private long delete(Path log, long s, boolean first) throws IOException {
    Path p = SegmentFiles.path(log, s);
    long length;
    try {
      length = fs.getFileStatus(p).getLen();
    } catch (FileNotFoundException e) {
      files.forget(s);
      return -1;
    }
    if (first) {
      SegmentFiles.markCollected(fs, log); // before the first: a replay from the start is no longer complete
    }
    if (!fs.delete(p, false)) {
      return -1;
    }
    files.forget(s);
    return length;
  }

  /** When a segment was first found unneeded: the reads-in-progress mark then, and {@link System#nanoTime}. */
  private record Unneeded(long mark, long nanos) {}

  @Override
  public void close() {
    Threads.stop(timer, 30);
  }
}
