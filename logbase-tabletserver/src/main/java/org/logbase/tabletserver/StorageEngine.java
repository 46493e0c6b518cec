package org.logbase.tabletserver;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.index.BLinkTree;
import org.logbase.log.AppendedRecord;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPosition;
import org.logbase.log.LogRecord;
import org.logbase.log.LogStats;
import org.logbase.log.LogWriter;
import org.logbase.log.RecordReader;
import org.logbase.recovery.CheckpointManifest;
import org.logbase.recovery.CheckpointStore;
import org.logbase.recovery.Checkpointer;
import org.logbase.recovery.LogRecovery;
import org.logbase.recovery.RecoveryReport;
import org.logbase.recovery.Replay;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.IndexApplier;
import org.logbase.tablet.PreparedRecords;
import org.logbase.tablet.RecordCache;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.RecordStore;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.logbase.tablet.TabletLimits;
import org.logbase.tablet.TimestampSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tablet server's storage: one log shared by all its tablets, an index per (tablet, column group),
 * checkpoints, and recovery on open. Opening recovers whatever an earlier incarnation left behind
 * (a crash included) before it accepts a write. Tablets can be given at open or opened and closed
 * later, as a master assigns them; the open ones are in one {@link TabletRegistry}.
 */
public final class StorageEngine implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(StorageEngine.class);
  /** Reports of tablet openings kept for {@link #recentOpenings}. */
  private static final int OPENINGS_KEPT = 16;

  /**
   * Who takes the prepared transactions that recovery restores: the transaction layer, which locks
   * their rows until their primary decides. Called while no log batch is applied.
   */
  @FunctionalInterface
  public interface PreparedListener {
    void restored(PreparedRecords p);
  }

  private final EngineOptions options;
  private final FileSystem fs;
  private final Path logDir;
  private final LogConfig logConfig;
  private final CheckpointStore checkpoints;
  private final TabletRegistry registry = new TabletRegistry();
  private final IndexApplier applier;
  private final LogWriter writer;
  private final RecordReader reader;
  private final RecordStore store;
  private final Checkpointer checkpointer;
  private final Replay recovery;
  private final RecordCache cache;
  private final TimestampSource clock;
  private final TabletLimits limits;
  private final Deque<RecoveryReport> openings = new ArrayDeque<>();
  // Both guarded by the applier (changed only inside atAppliedEnd).
  private final List<PreparedRecords> unclaimedPrepared = new ArrayList<>();
  private PreparedListener preparedListener;

  private StorageEngine(EngineOptions options, FileSystem fs, LogRecovery.Result r) throws IOException {
    this.options = options;
    this.fs = fs;
    Path root = new Path(options.root());
    this.logDir = new Path(root, "log");
    this.logConfig = LogConfig.from(options.config());
    this.checkpoints = new CheckpointStore(fs, new Path(root, "checkpoints"));
    this.recovery = r.replay();
    this.clock = options.clock() != null ? options.clock() : new HybridClock();
    clock.observe(r.maxTimestamp());
    this.cache = RecordCaches.create(options.config());
    this.limits = TabletLimits.from(options.config());
    this.applier = new IndexApplier((table, key) -> registry.snapshot().groups(table, key), cache,
        new IndexApplier.Watermark(r.nextLsn() - 1, new LogPosition(r.nextSegment(), 0)));
    this.writer = LogWriter.open(fs, logDir, logConfig, r.nextLsn(), applier::applyBatch);
    this.reader = new RecordReader(fs, logDir);
    this.store = new RecordStore(writer, reader, cache);
    this.checkpointer = new Checkpointer(checkpoints, () -> registry.snapshot().groupIndexes(), applier::watermark,
        options.config());
  }

  /** Opens (and recovers) the engine; the tablets in the options are served once this returns. */
  public static StorageEngine open(EngineOptions o) throws IOException {
    Objects.requireNonNull(o.root(), "root");
    FileSystem fs = o.fileSystem().apply(LogFileSystems.open(o.root(), o.hadoop()));
    StorageEngine engine = null;
    try {
      Path root = new Path(o.root());
      LogRecovery.Result r = LogRecovery.recover(fs, new Path(root, "log"),
          new CheckpointStore(fs, new Path(root, "checkpoints")), o.tablets(), LogConfig.from(o.config()),
          o.useCheckpoints());
      engine = new StorageEngine(o, fs, r);
      engine.join(r.replay(), o.tablets());
      engine.checkpointer.start();
      LOG.info("storage engine open at {} with {} tablets", o.root(), o.tablets().size());
      return engine;
    } catch (IOException | RuntimeException e) {
      // Once constructed, the engine owns the log threads and the file system: close it all.
      try {
        if (engine != null) {
          engine.close();
        } else {
          fs.close();
        }
      } catch (IOException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Opens one tablet; see {@link #openTablets}. */
  public Tablet openTablet(TabletDescriptor d) throws IOException {
    return openTablets(List.of(d)).get(0);
  }

  /**
   * Starts serving tablets: loads their checkpoints and replays this server's log for all of them
   * in one pass, while the server's other tablets take writes. A tablet that is open already with
   * more column groups in its schema gains the new groups (empty); one open with the same schema is
   * left as it is.
   *
   * <p>The replay runs to where the live path stands, then again over what came meanwhile, and
   * reads the last stretch while the live path is held: from that position on, the live applier
   * routes the tablets' records. Transactions the replay leaves prepared are restored to the live
   * applier and handed to the {@link PreparedListener} in the same step, and only then are the
   * tablets published, so a decision can never fall between the replay's end and the restore (issue
   * #8: a transaction committed meanwhile was taken for prepared, locked again and aborted by its
   * own primary), and no reader finds a tablet whose prepared rows are not locked yet.
   *
   * @return the tablets, in the order asked for
   */
  public synchronized List<Tablet> openTablets(List<TabletDescriptor> ds) throws IOException {
    Map<TabletId, TabletDescriptor> fresh = new LinkedHashMap<>();
    TabletRegistry.Snapshot open = registry.snapshot();
    for (TabletDescriptor d : ds) {
      TabletRegistry.Entry current = open.get(d.id());
      if (current != null) {
        addColumnGroups(current, d);
      } else {
        fresh.put(d.id(), d);
      }
    }
    if (!fresh.isEmpty()) {
      List<TabletDescriptor> toOpen = List.copyOf(fresh.values());
      open.checkCanOpen(toOpen);
      Replay replay = Replay.fromCheckpoints(fs, logDir, checkpoints, toOpen, logConfig, options.useCheckpoints());
      replay.scanTo(applier.appliedEnd());
      replay.scanTo(applier.appliedEnd()); // what was written during the first pass: the stretch held below is short
      try {
        applier.atAppliedEnd(end -> {
          try {
            replay.scanTo(end);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          join(replay, toOpen);
          return null;
        });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      clock.observe(replay.maxTimestamp());
      RecoveryReport report = replay.report();
      LOG.info("opened {} tablets: {}", toOpen.size(), report);
      synchronized (openings) {
        openings.addLast(report);
        if (openings.size() > OPENINGS_KEPT) {
          openings.removeFirst();
        }
      }
    }
    TabletRegistry.Snapshot now = registry.snapshot();
    List<Tablet> out = new ArrayList<>(ds.size());
    for (TabletDescriptor d : ds) {
      out.add(now.get(d.id()).tablet());
    }
    return out;
  }

  /**
   * The end of a replay, while no batch is applied: restores its undecided prepared transactions
   * (to the live applier and the listener), then publishes its tablets.
   */
  private void join(Replay replay, List<TabletDescriptor> tablets) {
    List<PreparedRecords> prepared = replay.undecided();
    applier.atAppliedEnd(end -> {
      for (PreparedRecords p : prepared) {
        applier.restorePrepared(p);
        if (preparedListener != null) {
          preparedListener.restored(p);
        } else {
          unclaimedPrepared.add(p);
        }
      }
      List<TabletRegistry.Entry> entries = new ArrayList<>();
      for (TabletDescriptor d : tablets) {
        GroupIndex[] gs = replay.indexes().get(d.id());
        entries.add(new TabletRegistry.Entry(new Tablet(d, gs, store, clock, limits), gs));
        LOG.info("serving tablet {}", d);
      }
      registry.putAll(entries);
      return null;
    });
  }

  /**
   * Sets the listener, and hands it what recovery restored before it was set (at open). From then
   * on every restore reaches it in the same step that gives the records back to the applier.
   */
  public void onPreparedRestored(PreparedListener l) {
    applier.atAppliedEnd(end -> {
      preparedListener = l;
      unclaimedPrepared.forEach(l::restored);
      unclaimedPrepared.clear();
      return null;
    });
  }

  /**
   * Appends records as one group-commit unit (a transaction's decision, for example); completes once
   * they are durable and applied.
   */
  public CompletableFuture<List<AppendedRecord>> append(List<LogRecord> records, Durability durability) {
    return store.append(records, durability);
  }

  /** Stops serving a tablet, then checkpoints it, so whoever opens it next replays little. */
  public synchronized void closeTablet(TabletId id) throws IOException {
    TabletRegistry.Entry e = registry.remove(id);
    if (e == null) {
      return;
    }
    checkpointer.checkpoint(e.groupIndexes());
    LOG.info("closed tablet {}", e.tablet().descriptor());
  }

  private void addColumnGroups(TabletRegistry.Entry current, TabletDescriptor d) {
    Set<Integer> known = new HashSet<>();
    current.tablet().descriptor().schema().columnGroups().forEach(g -> known.add(g.id()));
    List<ColumnGroup> added = d.schema().columnGroups().stream().filter(g -> !known.contains(g.id())).toList();
    if (added.isEmpty()) {
      return;
    }
    int maxId = d.schema().columnGroups().stream().mapToInt(ColumnGroup::id).max().orElse(0);
    GroupIndex[] grown = Arrays.copyOf(current.groups(), Math.max(current.groups().length, maxId + 1));
    for (ColumnGroup g : added) {
      // A new group has no records anywhere yet: its index starts empty.
      grown[g.id()] = new GroupIndex(d, g, BLinkTree.builder().build(), 0);
    }
    registry.putAll(List.of(new TabletRegistry.Entry(new Tablet(d, grown, store, clock, limits), grown)));
    LOG.info("tablet {} gained column groups {}", d, added);
  }

  /** The open tablets. */
  public TabletRegistry registry() {
    return registry;
  }

  /** The tablet with these ids, or null if this engine does not serve it. */
  public Tablet tabletOrNull(TabletId id) {
    TabletRegistry.Entry e = registry.snapshot().get(id);
    return e == null ? null : e.tablet();
  }

  /** The tablet with these ids; throws if this engine does not serve it. */
  public Tablet tablet(TabletId id) {
    Tablet t = tabletOrNull(id);
    if (t == null) {
      throw new IllegalArgumentException("this server does not serve tablet " + id);
    }
    return t;
  }

  /** The tablets served now, by table and tablet id. */
  public List<Tablet> tablets() {
    return registry.snapshot().entries().stream().map(TabletRegistry.Entry::tablet).toList();
  }

  /** Checkpoints every index now. */
  public List<CheckpointManifest> checkpoint() throws IOException {
    return checkpointer.checkpointAll();
  }

  /** What recovery did when this engine opened. */
  public RecoveryReport recoveryReport() {
    return recovery.report();
  }

  /** What the latest tablet openings replayed (one report per replay of the log), oldest first. */
  public List<RecoveryReport> recentOpenings() {
    synchronized (openings) {
      return List.copyOf(openings);
    }
  }

  public LogStats logStats() {
    return writer.stats();
  }

  public RecordCache cache() {
    return cache;
  }

  public TimestampSource clock() {
    return clock;
  }

  /** Whether the log still accepts writes. */
  public boolean isWritable() {
    return !writer.isFailed();
  }

  /** Stops checkpointing, writes out what is queued, closes the log and the file system. */
  @Override
  public void close() throws IOException {
    checkpointer.close();
    try {
      writer.close();
    } finally {
      try {
        reader.close();
      } finally {
        fs.close();
      }
    }
  }
}
