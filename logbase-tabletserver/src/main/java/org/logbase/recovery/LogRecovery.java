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
import org.logbase.log.LogConfig;
import org.logbase.log.LogDamage;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPosition;
import org.logbase.log.LogScanner;
import org.logbase.log.SegmentFiles;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier;
import org.logbase.tablet.NoRecordCache;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the indexes of a server's tablets: the newest valid checkpoint of each (tablet, column
 * group), then a redo of the log from the oldest position any of them covers (every index skipping
 * what its checkpoint already holds); without checkpoints, a full replay. Records of transactions
 * without a COMMIT never enter an index.
 */
public final class LogRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);
  private static final Duration FENCE_TIMEOUT = Duration.ofSeconds(60);

  /** The rebuilt state a server starts serving from. */
  public record Result(
      Map<TabletId, GroupIndex[]> indexes, long nextLsn, long maxTimestamp, long nextSegment, RecoveryReport report) {}

  private LogRecovery() {}

  /**
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
    if (from == null) {
      from = LogPosition.START;
    }
    problems.forEach(p -> LOG.warn("{}", p));
    long t1 = System.nanoTime();

    List<LogDamage> damage = new ArrayList<>();
    IndexApplier applier = new IndexApplier(indexes, new NoRecordCache(), new IndexApplier.Watermark(0, from));
    long[] replayed = {0};
    LogScanner.Result scan = LogScanner.scan(fs, logDir, from, config.maxFrameBytes(), d -> {
      damage.add(d);
      if (d.kind() == LogDamage.Kind.CORRUPT) {
        LOG.error("log damage: {}", d);
      } else {
        LOG.info("log damage: {}", d);
      }
    }, r -> {
      applier.apply(r);
      if (++replayed[0] % 1000 == 0) {
        faults.at("recovery.replay");
      }
    });
    int undecided = applier.dropUndecided();
    long t2 = System.nanoTime();

    maxLsn = Math.max(maxLsn, scan.maxLsn());
    maxTs = Math.max(maxTs, scan.maxTimestamp());
    long nextSegment = segments.isEmpty() ? 1 : segments.get(segments.size() - 1) + 1;
    RecoveryReport report = new RecoveryReport(loaded, entries, from, scan.records(), scan.bytes(),
        applier.applied(), undecided, applier.skippedUnknownTablet(), damage, problems,
        (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
    LOG.info("{}", report);
    return new Result(indexes, maxLsn + 1, maxTs, nextSegment, report);
  }
}
