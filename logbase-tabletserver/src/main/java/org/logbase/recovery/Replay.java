package org.logbase.recovery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.index.BLinkTree;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogConfig;
import org.logbase.log.LogDamage;
import org.logbase.log.LogPosition;
import org.logbase.log.LogScanner;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.IndexApplier;
import org.logbase.tablet.KeyRanges;
import org.logbase.tablet.NoRecordCache;
import org.logbase.tablet.PreparedRecords;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the indexes of some tablets: the newest valid checkpoint of each (tablet, column group),
 * then a redo of the log from the oldest position any of them covers (every index skipping what its
 * checkpoint already holds); without checkpoints, from the start of the log.
 *
 * <p>The redo can be continued: {@link #scanTo} reads from where the previous call stopped. A tablet
 * opened on a live server is replayed up to where the live path stands, then once more, and the
 * last stretch is read while the live path is held (see {@code StorageEngine#openTablet}), so that
 * the replay ends exactly where the live path goes on and no decision falls between the two.
 *
 * <p>Records go to the tablet whose key range holds their row key ({@link KeyRanges}), whichever
 * tablet wrote them. Records of transactions without a COMMIT never enter an index. {@link #undecided} hands back
 * those that were prepared (their rows in these tablets), to be restored as locks; the rest were
 * never acknowledged and are dropped.
 */
public final class Replay {
  private static final Logger LOG = LoggerFactory.getLogger(Replay.class);

  private final FileSystem fs;
  private final Path logDir;
  private final LogConfig config;
  private final Map<TabletId, GroupIndex[]> indexes;
  private final KeyRanges<GroupIndex[]> ranges;
  private final IndexApplier applier;
  private final LogPosition from;
  private final List<String> problems;
  private final List<LogDamage> damage = new ArrayList<>();
  private final int checkpointsLoaded;
  private final long checkpointEntries;
  private final long checkpointMillis;
  private LogPosition next;
  private long maxLsn;
  private long maxTimestamp;
  private long records;
  private long bytes;
  private long replayNanos;
  private long undecidedDropped;
  private boolean ended;

  private Replay(FileSystem fs, Path logDir, LogConfig config, Map<TabletId, GroupIndex[]> indexes,
      Map<TabletDescriptor, GroupIndex[]> byTablet, LogPosition from, long maxLsn, long maxTimestamp, List<String> problems, int loaded, long entries, long millis) {
    this.fs = fs;
    this.logDir = logDir;
    this.config = config;
    this.indexes = indexes;
    this.ranges = new KeyRanges<>(byTablet);
    this.applier = new IndexApplier(ranges::find, new NoRecordCache(), new IndexApplier.Watermark(0, LogPosition.START));
    this.from = from;
    this.next = from;
    this.maxLsn = maxLsn;
    this.maxTimestamp = maxTimestamp;
    this.problems = problems;
    this.checkpointsLoaded = loaded;
    this.checkpointEntries = entries;
    this.checkpointMillis = millis;
  }

  /**
   * Loads the newest valid checkpoint of every (tablet, column group); the redo then starts at the
   * oldest position they cover (the start of the log for an index without a checkpoint).
   *
   * @param useCheckpoints false starts every index empty (benchmarks compare the two)
   */
  public static Replay fromCheckpoints(FileSystem fs, Path logDir, CheckpointStore checkpoints,
      List<TabletDescriptor> tablets, LogConfig config, boolean useCheckpoints) throws IOException {
    long t0 = System.nanoTime();
    List<String> problems = new ArrayList<>();
    Map<TabletId, GroupIndex[]> indexes = new HashMap<>();
    Map<TabletDescriptor, GroupIndex[]> byTablet = new HashMap<>();
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
      byTablet.put(t, groups);
    }
    problems.forEach(p -> LOG.warn("{}", p));
    return new Replay(fs, logDir, config, indexes, byTablet, from, maxLsn, maxTs, problems, loaded, entries,
        (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * Redoes the log from where the previous call stopped (first: from the checkpoints) up to {@code
   * to}, a batch boundary of the log (null: to its end, after which the replay cannot go on).
   */
  public void scanTo(LogPosition to) throws IOException {
    if (ended) {
      throw new IllegalStateException("this replay has read the whole log already");
    }
    if (next == null) {
      return; // no tablets
    }
    long t0 = System.nanoTime();
    LogScanner.Result scan = LogScanner.scan(fs, logDir, next, to, config.maxFrameBytes(), this::report, applier::apply);
    records += scan.records();
    bytes += scan.bytes();
    maxLsn = Math.max(maxLsn, scan.maxLsn());
    maxTimestamp = Math.max(maxTimestamp, scan.maxTimestamp());
    replayNanos += System.nanoTime() - t0;
    if (to == null) {
      ended = true;
    } else {
      next = to;
    }
  }

  /**
   * Ends the replay: transactions without an outcome in the log so far. Those with a PREPARE record
   * are returned with their rows in these tablets (none there: not returned, their own tablets'
   * replays restore them); those without were never acknowledged, and are dropped.
   */
  public List<PreparedRecords> undecided() {
    List<PreparedRecords> out = new ArrayList<>();
    for (PreparedRecords p : applier.takeUndecided()) {
      List<AppendedRecord> mine = new ArrayList<>();
      for (AppendedRecord r : p.rows()) {
        if (ranges.find(r.record().tableId(), r.record().key()) != null) {
          mine.add(r);
        }
      }
      if (!mine.isEmpty()) {
        out.add(new PreparedRecords(p.txnId(), p.prepare(), mine));
      }
    }
    undecidedDropped = applier.droppedUndecided();
    return out;
  }

  /** The rebuilt indexes by tablet (array index = column group id). */
  public Map<TabletId, GroupIndex[]> indexes() {
    return indexes;
  }

  public long maxLsn() {
    return maxLsn;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public RecoveryReport report() {
    return new RecoveryReport(indexes.size(), checkpointsLoaded, checkpointEntries, from == null ? LogPosition.START : from, records,
        bytes, applier.applied(), undecidedDropped, applier.skippedUnknownTablet(), List.copyOf(damage),
        List.copyOf(problems), checkpointMillis, replayNanos / 1_000_000);
  }

  private void report(LogDamage d) {
    damage.add(d);
    if (d.kind() == LogDamage.Kind.CORRUPT) {
      LOG.error("log damage: {}", d);
    } else {
      LOG.info("log damage: {}", d);
    }
  }
}
