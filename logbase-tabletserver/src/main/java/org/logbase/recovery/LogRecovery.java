package org.logbase.recovery;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.FaultInjector;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.index.BLinkTree;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogConfig;
import org.logbase.log.LogDamage;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPosition;
import org.logbase.log.LogScanner;
import org.logbase.log.SegmentFiles;
import org.logbase.log.SegmentScanner;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier;
import org.logbase.tablet.NoRecordCache;
import org.logbase.tablet.PreparedRecords;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the indexes of tablets: the newest valid checkpoint of each (tablet, column group), then
 * a redo of the log from the oldest position any of them covers (every index skipping what its
 * checkpoint already holds); without checkpoints, a full replay. Records of transactions without a
 * COMMIT never enter an index: prepared ones are handed back to be restored as locks, the rest
 * (never acknowledged) are dropped.
 *
 * <p>Used when a server starts ({@link #recover}) and when it opens a tablet later ({@link
 * #rebuild} with an upper bound, while its own writer keeps appending).
 */
public final class LogRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);
  private static final Duration FENCE_TIMEOUT = Duration.ofSeconds(60);

  /** The rebuilt state a server starts serving from. */
  public record Result(
      Map<TabletId, GroupIndex[]> indexes, long nextLsn, long maxTimestamp, long nextSegment,
      List<PreparedRecords> prepared, RecoveryReport report) {}

  /** Indexes rebuilt for some tablets, with what the replay saw. */
  public record Rebuilt(
      Map<TabletId, GroupIndex[]> indexes, long maxLsn, long maxTimestamp, List<PreparedRecords> prepared,
      RecoveryReport report) {}

  private LogRecovery() {}

  /**
   * Recovers a server's log on start: fences it, rebuilds the given tablets, and finds where the log
   * continues (next LSN and segment).
   *
   * @param useCheckpoints false forces a full replay (benchmarks compare the two)
   */
  public static Result recover(
      FileSystem fs, Path logDir, CheckpointStore checkpoints, List<TabletDescriptor> tablets, LogConfig config,
      boolean useCheckpoints, FaultInjector faults) throws IOException {
    List<Long> segments = SegmentFiles.list(fs, logDir);
    for (long s : segments) {
      // A previous incarnation of this server may still hold the last segment open.
      LogFileSystems.fence(fs, SegmentFiles.path(logDir, s), FENCE_TIMEOUT);
    }
    int removed = checkpoints.removeTemporaryFiles();
    if (removed > 0) {
      LOG.info("removed {} temporary checkpoint files left by a crash", removed);
    }
    Rebuilt r = rebuild(fs, logDir, checkpoints, tablets, config, useCheckpoints, null, faults);
    long[] tail = tablets.isEmpty() ? lastLsnAndTimestamp(fs, logDir, segments, config) : new long[] {0, 0};
    long maxLsn = Math.max(r.maxLsn(), tail[0]);
    long maxTs = Math.max(r.maxTimestamp(), tail[1]);
    long nextSegment = segments.isEmpty() ? 1 : segments.get(segments.size() - 1) + 1;
    return new Result(r.indexes(), maxLsn + 1, maxTs, nextSegment, r.prepared(), r.report());
  }

  /**
   * Rebuilds the indexes of {@code tablets} from their checkpoints and the log up to {@code to}
   * (null: the end of the log).
   */
  public static Rebuilt rebuild(
      FileSystem fs, Path logDir, CheckpointStore checkpoints, List<TabletDescriptor> tablets, LogConfig config,
      boolean useCheckpoints, LogPosition to, FaultInjector faults) throws IOException {
    long t0 = System.nanoTime();
    List<String> problems = new ArrayList<>();
    Map<TabletId, GroupIndex[]> indexes = new HashMap<>();
    LogPosition from = null;
    long maxLsn = 0;
    long maxTs = 0;
    int loaded = 0;
    long entries = 0;
    for (TabletDescriptor t : tablets) {
      int maxId = t.schema().columnGroups().stream().mapToInt(ColumnGroup::id).max().orElse(0);
      GroupIndex[] groups = new GroupIndex[maxId + 1];
      for (ColumnGroup g : t.schema().columnGroups()) {
        CheckpointStore.Loaded c = useCheckpoints ? checkpoints.loadNewest(t.id(), g.id(), problems::add) : null;
        if (c == null) {
          groups[g.id()] = new GroupIndex(t, g, BLinkTree.builder().build(), 0);
          from = LogPosition.START;
        } else {
          CheckpointManifest m = c.manifest();
          groups[g.id()] = new GroupIndex(t, g, c.index(), m.lsn());
          from = from == null ? m.position() : from.min(m.position());
          maxLsn = Math.max(maxLsn, m.lsn());
          maxTs = Math.max(maxTs, m.maxTimestamp());
          loaded++;
          entries += m.entries();
        }
      }
      if (indexes.put(t.id(), groups) != null) {
        throw new IllegalArgumentException("tablet " + t.id() + " listed twice");
      }
    }
    problems.forEach(p -> LOG.warn("{}", p));
    long t1 = System.nanoTime();

    List<LogDamage> damage = new ArrayList<>();
    IndexApplier applier = new IndexApplier(indexes, new NoRecordCache(), new IndexApplier.Watermark(0, LogPosition.START));
    LogScanner.Result scan = new LogScanner.Result(0, 0, 0, 0, 0);
    long undecided = 0;
    List<PreparedRecords> prepared = List.of();
    if (from != null) {
      long[] replayed = {0};
      scan = LogScanner.scan(fs, logDir, from, to, config.maxFrameBytes(), d -> report(d, damage), r -> {
        applier.apply(r);
        if (++replayed[0] % 1000 == 0) {
          faults.at("recovery.replay");
        }
      });
      prepared = applier.takeUndecided();
      undecided = applier.droppedUndecided();
    }
    long t2 = System.nanoTime();
    RecoveryReport report = new RecoveryReport(loaded, entries, from == null ? LogPosition.START : from,
        scan.records(), scan.bytes(), applier.applied(), undecided, applier.skippedUnknownTablet(), damage, problems,
        (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
    LOG.info("{}", report);
    return new Rebuilt(indexes, Math.max(maxLsn, scan.maxLsn()), Math.max(maxTs, scan.maxTimestamp()), prepared,
        report);
  }

  /** LSN and largest timestamp of the newest segment holding a record: where a log with no tablets continues. */
  private static long[] lastLsnAndTimestamp(FileSystem fs, Path logDir, List<Long> segments, LogConfig config)
      throws IOException {
    for (int i = segments.size() - 1; i >= 0; i--) {
      long lsn = 0;
      long ts = 0;
      try (SegmentScanner s = SegmentScanner.open(fs, logDir, segments.get(i), 0, config.maxFrameBytes(), d -> { })) {
        AppendedRecord r;
        while ((r = s.next()) != null) {
          lsn = Math.max(lsn, r.record().lsn());
          ts = Math.max(ts, r.record().timestamp());
        }
      }
      if (lsn > 0) {
        return new long[] {lsn, ts};
      }
    }
    return new long[] {0, 0};
  }

  private static void report(LogDamage d, List<LogDamage> damage) {
    damage.add(d);
    if (d.kind() == LogDamage.Kind.CORRUPT) {
      LOG.error("log damage: {}", d);
    } else {
      LOG.info("log damage: {}", d);
    }
  }
}
