package org.logbase.recovery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogConfig;
import org.logbase.log.LogDamage;
import org.logbase.log.LogPosition;
import org.logbase.files.ReadGuard;
import org.logbase.log.LogScanner;
import org.logbase.log.LogSeals;
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
 * Rebuilds the indexes of some tablets whose tails are in one log: the newest usable checkpoint of
 * each ({@link TabletCheckpoints}), then a redo of the log from the oldest position any of them
 * covers (every index skipping what its checkpoint already holds); without checkpoints, from the
 * start of the log. Row versions of other tablets are passed over by their header, undecoded.
 *
 * <p>The redo can be continued: {@link #scanTo} reads from where the previous call stopped. A tablet
 * opened on a live server is replayed up to where the live path stands, then once more, and the
 * last stretch is read while the live path is held (see {@code StorageEngine#openTablet}), so that
 * the replay ends exactly where the live path goes on and no decision falls between the two.
 *
 * <p>Records go to the tablet whose key range holds their row key ({@link KeyRanges}), whichever
 * tablet wrote them. No segment is read past the length it is sealed at ({@link LogSeals}): every
 * replay of a log whose writer is gone ends where the first one did. Records of transactions without
 * a COMMIT never enter an index. {@link #undecided} hands back
 * those that were prepared (their rows in these tablets), to be restored as locks; the rest were
 * never acknowledged and are dropped.
 */
public final class Replay {
  private static final Logger LOG = LoggerFactory.getLogger(Replay.class);

  private final FileSystem fs;
  private final Path logDir;
  private final LogConfig config;
  private final LogSeals seals;
  private final ReadGuard guard;
  private final Map<TabletId, GroupIndex[]> indexes;
  private final KeyRanges<GroupIndex[]> ranges;
  private final IndexApplier applier;
  private final LogPosition from;
  private final List<String> problems;
  private long maxLsn;
  private long maxTimestamp;
  private final List<LogDamage> damage = new ArrayList<>();
  private final int checkpointsLoaded;
  private final long checkpointEntries;
  private final long checkpointMillis;
  private LogPosition next;
  private long records;
  private long skipped;
  private long bytes;
  private long replayNanos;
  private long undecidedDropped;
  private boolean ended;

  private Replay(FileSystem fs, Path logDir, LogConfig config, LogSeals seals, ReadGuard guard,
      List<TabletCheckpoints.Start> starts, List<String> problems, long checkpointMillis) {
    this.fs = fs;
    this.seals = seals;
    this.guard = guard;
    this.logDir = logDir;
    this.config = config;
    this.indexes = new HashMap<>();
    Map<TabletDescriptor, GroupIndex[]> byTablet = new HashMap<>();
    LogPosition from = null;
    int loaded = 0;
    long entries = 0;
    for (TabletCheckpoints.Start s : starts) {
      if (indexes.put(s.tablet().id(), s.groups()) != null) {
        throw new IllegalArgumentException("tablet " + s.tablet().id() + " listed twice");
      }
      byTablet.put(s.tablet(), s.groups());
      from = from == null ? s.from() : from.min(s.from());
      maxLsn = Math.max(maxLsn, s.lsn());
      maxTimestamp = Math.max(maxTimestamp, s.maxTimestamp());
      loaded += s.checkpointsLoaded();
      entries += s.entries();
    }
    this.ranges = new KeyRanges<>(byTablet);
    this.applier = new IndexApplier(ranges::find, new NoRecordCache(), new IndexApplier.Watermark(0, LogPosition.START));
    this.from = from;
    this.next = from;
    this.problems = problems;
    this.checkpointsLoaded = loaded;
    this.checkpointEntries = entries;
    this.checkpointMillis = checkpointMillis;
  }

  /**
   * A replay of {@code logDir} for tablets whose checkpoints are loaded already; each tablet's tail
   * must be in that log.
   *
   * @param guard holds off the close of a segment this server writes while the replay reads it
   * @param problems what loading the checkpoints met (reported with the replay)
   */
  public static Replay of(FileSystem fs, Path logDir, LogConfig config, LogSeals seals, ReadGuard guard,
      List<TabletCheckpoints.Start> starts, List<String> problems, long checkpointMillis) {
    for (TabletCheckpoints.Start s : starts) {
      if (!fs.makeQualified(s.logDir()).equals(fs.makeQualified(logDir))) {
        throw new IllegalArgumentException("tablet " + s.tablet() + " continues in " + s.logDir() + ", not " + logDir);
      }
    }
    problems.forEach(p -> LOG.warn("{}", p));
    return new Replay(fs, logDir, config, seals, guard, starts, problems, checkpointMillis);
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
    LogScanner.Result scan = LogScanner.scan(fs, logDir, next, to, config.maxFrameBytes(), this::report,
        (table, key) -> ranges.find(table, key) != null, seals, guard, applier::apply);
    records += scan.records();
    skipped += scan.skipped();
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
        skipped, bytes, applier.applied(), undecidedDropped, applier.skippedUnknownTablet(), List.copyOf(damage),
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
