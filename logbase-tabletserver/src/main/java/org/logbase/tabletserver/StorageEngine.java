package org.logbase.tabletserver;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongPredicate;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Bytes;
import org.logbase.common.Closeables;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.Threads;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.compaction.CompactionReport;
import org.logbase.compaction.TabletCompaction;
import org.logbase.files.FileIds;
import org.logbase.files.FileRegistry;
import org.logbase.files.ReadGuard;
import org.logbase.files.LocalFileIds;
import org.logbase.files.ReadsInProgress;
import org.logbase.files.SharedPaths;
import org.logbase.index.BLinkTree;
import org.logbase.log.AppendedRecord;
import org.logbase.log.Durability;
import org.logbase.log.FileLogSeals;
import org.logbase.log.LogConfig;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPointer;
import org.logbase.log.LogPosition;
import org.logbase.log.LogRecord;
import org.logbase.log.LogSeals;
import org.logbase.log.LogStats;
import org.logbase.log.LogWriter;
import org.logbase.log.RecordReader;
import org.logbase.log.SegmentFiles;
import org.logbase.manifest.Manifests;
import org.logbase.recovery.Checkpointer;
import org.logbase.recovery.LogCollector;
import org.logbase.recovery.LogRecovery;
import org.logbase.recovery.RecoveryReport;
import org.logbase.recovery.Replay;
import org.logbase.recovery.TabletCheckpoints;
import org.logbase.rpc.CheckpointEdit;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.IndexApplier;
import org.logbase.tablet.PreparedRecords;
import org.logbase.tablet.RecordCache;
import org.logbase.tablet.RecordCaches;
import org.logbase.tablet.RecordStore;
import org.logbase.tablet.SortedSegments;
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
  /** Tablets taken over whose checkpoints are written at the same time. */
  private static final int TAKEOVER_CHECKPOINT_THREADS = 4;
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
  private final LogSeals seals;
  /** {@link #seals} for replays of this server's own log, not asking about the segments it writes. */
  private final LogSeals ownLogSeals;
  private final LogCollector garbage;
  private final FileRegistry files;
  private final TabletCheckpoints checkpoints;
  private final TabletRegistry registry = new TabletRegistry();
  private final IndexApplier applier;
  private final LogWriter writer;
  private final RecordReader reader;
  private final RecordStore store;
  private final Checkpointer checkpointer;
  /**
   * What recovery did at open, set once it ended (before the engine is handed out); the report
   * only: the replay itself holds the indexes it built, which a compaction replaces, and would keep
   * them reachable.
   */
  private RecoveryReport recovery;
  private final RecordCache cache;
  private final TimestampSource clock;
  private final TabletLimits limits;
  private final Deque<RecoveryReport> openings = new ArrayDeque<>();
  private final SortedSegments segments;
  private final TabletCompaction compaction;
  /** One compaction at a time on this server. */
  private final Object compactionLock = new Object();
  // Both guarded by the applier (changed only inside atAppliedEnd).
  private final List<PreparedRecords> unclaimedPrepared = new ArrayList<>();
  private PreparedListener preparedListener;

  private StorageEngine(EngineOptions options, FileSystem fs, FileRegistry files, FileIds ids,
      TabletCheckpoints checkpoints, LogSeals seals, LogRecovery.Result r, LogCollector garbage) throws IOException {
    this.options = options;
    this.garbage = garbage;
    this.fs = fs;
    this.seals = seals;
    this.ownLogSeals = seals.olderThan(r.nextSegment());
    this.logDir = checkpoints.ownLog();
    this.logConfig = LogConfig.from(options.config());
    this.files = files;
    this.checkpoints = checkpoints;
    this.clock = options.clock() != null ? options.clock() : new HybridClock();
    clock.observe(r.maxTimestamp());
    this.cache = RecordCaches.create(options.config());
    this.limits = TabletLimits.from(options.config());
    this.applier = new IndexApplier((table, key) -> registry.snapshot().groups(table, key), cache,
        new IndexApplier.Watermark(r.nextLsn() - 1, new LogPosition(r.nextSegment(), 0)));
    this.writer = LogWriter.open(fs, logDir, logConfig, r.nextLsn(), ids, files, applier::applyBatch);
    this.reader = new RecordReader(files);
    this.store = new RecordStore(writer, reader, cache);
    this.checkpointer = new Checkpointer(checkpoints, () -> registry.snapshot().entries().stream()
        .map(TabletRegistry.Entry::groups).toList(), applier::watermark, options.config());
    this.segments = checkpoints.segments();
    this.compaction = new TabletCompaction(fs, ids, reader, options.config());
  }

  /**
   * Opens (and recovers) the engine; the tablets in the options are served once this returns.
   * Those whose tails are in this server's log are rebuilt by the recovery of the log; the others
   * (last served by another server) are opened after, as {@link #openTablets} does.
   */
  public static StorageEngine open(EngineOptions o) throws IOException {
    Objects.requireNonNull(o.root(), "root");
    FileSystem fs = o.fileSystem().apply(LogFileSystems.open(o.root(), o.hadoop()));
    StorageEngine engine = null;
    FileRegistry files = new FileRegistry(fs, o.config());
    SortedSegments sorted = null;
    try {
      Path logDir = fs.makeQualified(new Path(new Path(o.root()), "log"));
      Path shared = new Path(o.shared());
      List<Long> segments = SegmentFiles.register(files, fs, logDir);
      long newest = segments.isEmpty() ? 0 : segments.get(segments.size() - 1);
      FileIds ids = o.fileIds() != null ? o.fileIds() : new LocalFileIds(fs, new Path(shared, "file-ids"), newest + 1);
      ids.reserveAbove(newest);
      Manifests manifests = new Manifests(fs, new Path(shared, "tablets"));
      ReadsInProgress reads = new ReadsInProgress();
      sorted = new SortedSegments(fs, o.config(), reads);
      TabletCheckpoints checkpoints = new TabletCheckpoints(fs, manifests, files, ids, logDir, sorted);
      long t0 = System.nanoTime();
      List<String> problems = new ArrayList<>();
      List<TabletCheckpoints.Start> own = new ArrayList<>();
      List<TabletCheckpoints.Start> elsewhere = new ArrayList<>();
      for (TabletDescriptor d : o.tablets()) {
        TabletCheckpoints.Start s = checkpoints.load(d, o.useCheckpoints(), problems::add);
        (checkpoints.isOwnLog(s.logDir()) ? own : elsewhere).add(s);
      }
      recordOrigins(checkpoints, own);
      LogSeals seals = o.seals() != null ? o.seals() : new FileLogSeals(fs, new Path(shared, "log-seals"));
      LogConfig logConfig = LogConfig.from(o.config());
      // Nothing writes this log yet: no segment of it closes while the replay reads.
      Replay replay = Replay.of(fs, logDir, logConfig, seals, ReadGuard.NONE, own, problems,
          (System.nanoTime() - t0) / 1_000_000);
      LogRecovery.Result r = LogRecovery.recover(fs, logDir, replay, !own.isEmpty(), logConfig, seals);
      engine = new StorageEngine(o, fs, files, ids, checkpoints, seals, r,
          new LogCollector(fs, manifests, o.droppedTables(), () -> o.otherLogs().goneLogs(fs, logDir), logDir, files,
              logConfig, o.config(), reads));
      engine.join(r.replay(), own.stream().map(TabletCheckpoints.Start::tablet).toList());
      engine.recovery = r.replay().report(); // after join: it counts the undecided transactions dropped
      if (!elsewhere.isEmpty()) {
        engine.openStarts(elsewhere, new ArrayList<>());
      }
      engine.checkpointer.start();
      engine.garbage.start();
      LOG.info("storage engine open at {} with {} tablets", o.root(), o.tablets().size());
      return engine;
    } catch (IOException | RuntimeException e) {
      // Once constructed, the engine owns the log threads and the file system: close it all.
      if (engine != null) {
        Closeables.closeAllAfter(List.of(engine), e);
      } else {
        Closeables.closeAllAfter(sorted == null ? List.of(files, fs) : List.of(sorted, files, fs), e);
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
   * more column groups in its schema gains the new groups (empty); one whose groups differ only in
   * their storage policies gets the new schema over the same indexes; one open with the same schema
   * is left as it is.
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
        addColumnGroups(d);
      } else {
        fresh.put(d.id(), d);
      }
    }
    if (!fresh.isEmpty()) {
      List<TabletDescriptor> toOpen = List.copyOf(fresh.values());
      open.checkCanOpen(toOpen);
      long t0 = System.nanoTime();
      List<String> problems = new ArrayList<>();
      List<TabletCheckpoints.Start> starts = new ArrayList<>();
      for (TabletDescriptor d : toOpen) {
        starts.add(checkpoints.load(d, options.useCheckpoints(), problems::add));
      }
      openStarts(starts, problems, (System.nanoTime() - t0) / 1_000_000);
    }
    TabletRegistry.Snapshot now = registry.snapshot();
    List<Tablet> out = new ArrayList<>(ds.size());
    for (TabletDescriptor d : ds) {
      out.add(now.get(d.id()).tablet());
    }
    return out;
  }

  private void openStarts(List<TabletCheckpoints.Start> starts, List<String> problems) throws IOException {
    openStarts(starts, problems, 0);
  }

  /**
   * Rebuilds tablets whose checkpoints are loaded and publishes them: those whose tails are in
   * another server's log are brought up to date from it and checkpointed here first; then one
   * replay of this server's log for all of them, joined to the live path.
   */
  private void openStarts(List<TabletCheckpoints.Start> starts, List<String> problems, long loadMillis)
      throws IOException {
    List<TabletCheckpoints.Start> own = new ArrayList<>();
    Map<Path, List<TabletCheckpoints.Start>> elsewhere = new LinkedHashMap<>();
    for (TabletCheckpoints.Start s : starts) {
      if (checkpoints.isOwnLog(s.logDir())) {
        own.add(s);
      } else {
        elsewhere.computeIfAbsent(s.logDir(), k -> new ArrayList<>()).add(s);
      }
    }
    for (Map.Entry<Path, List<TabletCheckpoints.Start>> e : elsewhere.entrySet()) {
      own.addAll(takeOver(e.getKey(), e.getValue()));
    }
    recordOrigins(checkpoints, own);
    List<TabletDescriptor> toOpen = own.stream().map(TabletCheckpoints.Start::tablet).toList();
    Replay replay = Replay.of(fs, logDir, logConfig, ownLogSeals, files, own, problems, loadMillis);
    replay.scanTo(applier.appliedEnd());
    replay.scanTo(applier.appliedEnd()); // what was written during the first pass: the stretch held below is short
    try {
      applier.atAppliedEnd(end -> {
        try {
          replay.scanTo(end);
        } catch (IOException ex) {
          throw new UncheckedIOException(ex);
        }
        join(replay, toOpen);
        return null;
      });
    } catch (UncheckedIOException ex) {
      throw ex.getCause();
    }
    clock.observe(replay.maxTimestamp());
    remember(replay.report());
  }

  /**
   * Brings tablets whose tails are in another server's log up to date from that log, then
   * checkpoints them with their tails continuing in this server's log, before they take a write
   * here: a crash of this server then finds them through its own log. The other server must no
   * longer write records of these tablets: it closed them (and checkpointed them on closing), or its
   * session ended (failover) and its log is fenced and sealed here first, so this replay and every
   * later one of that log end at the same place.
   *
   * @return the tablets as if loaded from those checkpoints
   */
  private List<TabletCheckpoints.Start> takeOver(Path otherLog, List<TabletCheckpoints.Start> starts)
      throws IOException {
    long t0 = System.nanoTime();
    // Listed before asking whether its writer lives: see LogRecovery.seal.
    List<Long> segments = SegmentFiles.list(fs, otherLog);
    if (!options.otherLogs().writerLive(otherLog)) {
      LogRecovery.seal(fs, otherLog, segments, seals);
    }
    long fenced = System.nanoTime();
    SegmentFiles.register(files, fs, otherLog);
    Replay other = Replay.of(fs, otherLog, logConfig, seals, ReadGuard.NONE, starts, new ArrayList<>(), 0);
    other.scanTo(null);
    long replayed = System.nanoTime();
    List<PreparedRecords> inDoubt = other.undecided();
    remember(other.report());
    clock.observe(other.maxTimestamp());
    // Nothing of these tablets is in this log after the watermark: they were served elsewhere.
    IndexApplier.Watermark w = applier.watermark();
    relogPrepared(otherLog, inDoubt);
    writeInParallel(starts, other, w);
    List<TabletCheckpoints.Start> out = new ArrayList<>();
    for (TabletCheckpoints.Start s : starts) {
      GroupIndex[] built = other.indexes().get(s.tablet().id());
      GroupIndex[] here = new GroupIndex[built.length];
      for (int i = 0; i < built.length; i++) {
        if (built[i] != null) {
          here[i] = new GroupIndex(s.tablet(), built[i].group(), built[i].index(), built[i].segments(),
              built[i].gcHorizon(), w.lsn());
        }
      }
      out.add(new TabletCheckpoints.Start(s.tablet(), here, logDir, w.position(), w.lsn(), other.maxTimestamp(),
          s.checkpointsLoaded(), s.entries()));
      LOG.info("took over tablet {} from {} (fence {} ms, segments and replay {} ms, prepared and checkpoint {} ms): {}",
          s.tablet(), otherLog, (fenced - t0) / 1_000_000, (replayed - fenced) / 1_000_000,
          (System.nanoTime() - replayed) / 1_000_000, other.report());
    }
    return out;
  }

  /**
   * Checkpoints the tablets taken over at {@code w}, several at a time: each writes the index files
   * of tablets that may hold hundreds of thousands of entries, the slowest step of a failover.
   */
  private void writeInParallel(List<TabletCheckpoints.Start> starts, Replay other, IndexApplier.Watermark w)
      throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(TAKEOVER_CHECKPOINT_THREADS, starts.size()),
        Threads.daemon("takeover-checkpoint"));
    try {
      List<Future<CheckpointEdit>> written = new ArrayList<>();
      for (TabletCheckpoints.Start s : starts) {
        GroupIndex[] built = other.indexes().get(s.tablet().id());
        written.add(pool.submit(() -> checkpoints.write(s.tablet(), built, w)));
      }
      for (Future<CheckpointEdit> f : written) {
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while checkpointing tablets taken over");
        } catch (ExecutionException e) {
          throw e.getCause() instanceof IOException io ? io : new IOException("checkpointing a tablet taken over failed",
              e.getCause());
        }
      }
    } finally {
      // Not shutdownNow: interrupting a thread in the middle of an HDFS write can break the client
      // it shares with the others. A failure above waited for every write already.
      pool.shutdown();
    }
  }

  /**
   * Writes the rows and PREPARE records of transactions left undecided in another server's log into
   * this server's log, after the watermark the tablets' new checkpoints name: the replay of this log
   * that publishes the tablets finds them there and restores them as locks, as after a restart, and
   * so does every later recovery of this server. The copies carry the transactions' ids; their rows
   * are applied only when the primary decides (docs/transactions.md).
   */
  private void relogPrepared(Path otherLog, List<PreparedRecords> inDoubt) throws IOException {
    if (inDoubt.isEmpty()) {
      return;
    }
    List<LogRecord> copies = new ArrayList<>();
    for (PreparedRecords p : inDoubt) {
      p.rows().forEach(r -> copies.add(r.record()));
      copies.add(p.prepare());
    }
    try {
      append(copies, Durability.HSYNC).join();
    } catch (CompletionException e) {
      throw new IOException("copying " + inDoubt.size() + " prepared transactions from " + otherLog + " failed", e.getCause());
    }
    LOG.info("{} transactions prepared in {} without a decision carried over into this log ({} records)",
        inDoubt.size(), otherLog, copies.size());
  }

  /** Names this log in the manifest of each tablet that has no checkpoint yet (see {@link TabletCheckpoints#recordOrigin}). */
  private static void recordOrigins(TabletCheckpoints checkpoints, List<TabletCheckpoints.Start> own) throws IOException {
    long t0 = System.nanoTime();
    int written = 0;
    for (TabletCheckpoints.Start s : own) {
      if (checkpoints.recordOrigin(s.tablet())) {
        written++;
      }
    }
    if (written > 0) {
      LOG.info("recorded this log as the origin of {} new tablets in {} ms", written, (System.nanoTime() - t0) / 1_000_000);
    }
  }

  private void remember(RecoveryReport report) {
    LOG.info("opened {} tablets: {}", report.tablets(), report);
    synchronized (openings) {
      openings.addLast(report);
      if (openings.size() > OPENINGS_KEPT) {
        openings.removeFirst();
      }
    }
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
    closeTablet(id, true);
  }

  /**
   * Checkpoints a tablet that goes on serving: taken just before a move or a split stops its
   * writes, so that the close itself need not write one (its next server replays the short stretch
   * of this log written in between). Writes the index files of the groups written since the last
   * checkpoint: the slow part of a checkpoint, done while the tablet still serves.
   */
  public void checkpointBeforeClose(TabletId id) throws IOException {
    long t0 = System.nanoTime();
    // The groups as served when the checkpoint runs, read under its lock: a compaction may switch
    // the tablet to new ones until then, and a checkpoint of the old ones would leave out the writes
    // made since while naming a watermark past them.
    checkpointer.exclusive(() -> {
      TabletRegistry.Entry e = registry.snapshot().get(id);
      if (e != null) {
        checkpointer.checkpoint(e.groups());
        LOG.info("checkpointed tablet {} before closing it in {} ms", e.tablet().descriptor(),
            (System.nanoTime() - t0) / 1_000_000);
      }
    });
  }

  /**
   * Stops serving a tablet. With {@code checkpoint}, checkpoints it first; without, its newest
   * checkpoint (one {@link #checkpointBeforeClose} just wrote, say) and this log's records after it
   * are what its next server opens it from: every record of it is durable in this log (the writes
   * were drained), so nothing is lost either way.
   */
  public synchronized void closeTablet(TabletId id, boolean checkpoint) throws IOException {
    TabletRegistry.Entry closed = close(id, checkpoint);
    if (closed != null) {
      checkpoints.forget(closed.tablet().descriptor());
    }
  }

  /** Stops serving a tablet, keeping its manifest cached; the tablet's entry, or null if not served. */
  private TabletRegistry.Entry close(TabletId id, boolean checkpoint) throws IOException {
    long t0 = System.nanoTime();
    TabletRegistry.Entry[] closed = {null};
    // Between checkpoint rounds: none may checkpoint the tablet after it left (see Checkpointer).
    checkpointer.exclusive(() -> {
      closed[0] = registry.remove(id);
      if (closed[0] != null && checkpoint) {
        checkpointer.checkpoint(closed[0].groups());
      }
    });
    if (closed[0] != null) {
      LOG.info("closed tablet {} ({} ms)", closed[0].tablet().descriptor(), (System.nanoTime() - t0) / 1_000_000);
    }
    return closed[0];
  }

  /** Whether the tablet was split (its manifest is retired). */
  public boolean isSplit(TabletDescriptor d) throws IOException {
    return checkpoints.isSplit(d);
  }

  /**
   * The key a split of {@code parent} (served here) would use: {@code key} if it is inside the
   * tablet (not its first key), or about the middle of its versions when {@code key} is null.
   *
   * @throws InvalidRequestException if the key is outside, or there is nothing to split
   */
  public byte[] splitKey(TabletDescriptor parent, byte[] key) {
    Tablet t = tabletOrNull(parent.id());
    if (t == null) {
      throw new NotServingTabletException("this server does not serve tablet " + parent + ", which is not split");
    }
    byte[] at;
    try {
      at = key != null ? key : t.middleKey();
    } catch (IOException e) {
      throw new UncheckedIOException("finding the middle key of " + parent + " failed", e);
    }
    if (at == null) {
      throw new InvalidRequestException("tablet " + parent + " holds rows of at most one key: nothing to split");
    }
    if (!parent.contains(at) || (parent.startKey() != null && Bytes.compare(parent.startKey(), at) == 0)) {
      throw new InvalidRequestException("split key " + Bytes.toStringBinary(at) + " is not inside " + parent
          + " (nor may it be its first key)");
    }
    return at;
  }

  /**
   * Splits a tablet into two daughters without copying data: closes it (a checkpoint), then records
   * the split in the manifests; the daughters are opened like any tablet, from the parent's
   * checkpoint, and the parent's records in the log reach them by key. The caller stops the
   * tablet's writes first (the transaction layer's {@code closeForWrites}). Asked again after it was
   * done, it answers the same key (the master may not have had the first answer).
   *
   * @param key where the right daughter starts; null: about the middle of the tablet's versions
   * @return the key it was split at
   */
  public synchronized byte[] splitTablet(TabletDescriptor parent, byte[] key, int leftId, int rightId)
      throws IOException {
    if (checkpoints.isSplit(parent)) {
      return checkpoints.split(parent, key, leftId, rightId);
    }
    byte[] at = splitKey(parent, key);
    // The parent's manifest as this server read and wrote it while serving stays cached through the
    // close: the split's writes are fenced against it (another server that took the parent over
    // since wrote a newer file), where a manifest read afresh would always look current.
    byte[] done;
    try {
      close(parent.id(), false); // served: splitKey checked it, under this object's lock
      done = checkpoints.split(parent, at, leftId, rightId);
    } finally {
      checkpoints.forget(parent);
    }
    LOG.info("split tablet {} at {} into tablets {} and {}", parent, Bytes.toStringBinary(done), leftId, rightId);
    return done;
  }

  /**
   * Gives an open tablet a changed schema: added column groups (empty) or changed policies, over the
   * same indexes and write gate. Done between checkpoint rounds while no batch is applied, from the
   * tablet as served at that moment, as a compaction's switch is: neither can undo the other.
   */
  private void addColumnGroups(TabletDescriptor d) throws IOException {
    checkpointer.exclusive(() -> applier.atAppliedEnd(end -> {
      TabletRegistry.Entry current = registry.snapshot().get(d.id());
      if (current != null) {
        changeSchema(current, d);
      }
      return null;
    }));
  }

  private void changeSchema(TabletRegistry.Entry current, TabletDescriptor d) {
    Set<Integer> known = new HashSet<>();
    current.tablet().descriptor().schema().columnGroups().forEach(g -> known.add(g.id()));
    List<ColumnGroup> added = d.schema().columnGroups().stream().filter(g -> !known.contains(g.id())).toList();
    if (added.isEmpty()) {
      if (!current.tablet().descriptor().schema().columnGroups().equals(d.schema().columnGroups())) {
        // Only group policies changed (alter): the new descriptor over the same indexes and gate.
        registry.putAll(List.of(new TabletRegistry.Entry(
            new Tablet(d, current.groups(), store, clock, limits, current.tablet().gate()), current.groups())));
        LOG.info("tablet {} has new column group policies: {}", d, d.schema().columnGroups());
      }
      return;
    }
    int maxId = d.schema().columnGroups().stream().mapToInt(ColumnGroup::id).max().orElse(0);
    GroupIndex[] grown = Arrays.copyOf(current.groups(), Math.max(current.groups().length, maxId + 1));
    for (ColumnGroup g : added) {
      // A new group has no records anywhere yet: its index starts empty.
      grown[g.id()] = new GroupIndex(d, g, BLinkTree.builder().build(), 0);
    }
    registry.putAll(List.of(new TabletRegistry.Entry(
        new Tablet(d, grown, store, clock, limits, current.tablet().gate()), grown)));
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

  /**
   * Compacts one served tablet: rewrites its versions into one sorted segment per column group and
   * switches it to them (docs/architecture.md, "Compaction").
   *
   * @throws NotServingTabletException if this engine does not serve it
   */
  public CompactionReport compact(TabletId id) throws IOException {
    synchronized (compactionLock) {
      TabletRegistry.Entry e = registry.snapshot().get(id);
      if (e == null) {
        throw new NotServingTabletException("this server does not serve tablet " + id);
      }
      TabletDescriptor d = e.tablet().descriptor();
      IndexApplier.Watermark w = applier.watermark();
      LongPredicate tail = tailAfter(w.position());
      TabletCompaction.Written written = compaction.write(d, e.groups(), checkpoints.directory(d), tail,
          clock.wallMillis(), ReadsInProgress.older(clock.oldestHeldSnapshot(), reads().oldestSnapshot()));
      boolean[] switched = {false};
      checkpointer.exclusive(() -> {
        if (registry.snapshot().get(id) != e) {
          return; // closed, moved, split or changed since: the new files are not needed
        }
        GroupIndex[] next = applier.atAppliedEnd(end -> {
          try {
            GroupIndex[] g = written.switchTo(e.groups(), tail, segments);
            registry.putAll(List.of(new TabletRegistry.Entry(
                new Tablet(d, g, store, clock, limits, e.tablet().gate()), g)));
            return g;
          } catch (IOException ex) {
            throw new UncheckedIOException(ex);
          }
        });
        switched[0] = true;
        checkpointer.checkpoint(next);
      });
      if (!switched[0]) {
        written.abandon();
        throw new NotServingTabletException("tablet " + d + " closed or changed during its compaction; nothing changed");
      }
      CompactionReport r = written.report();
      LOG.info("compacted {}: {} versions ({} bytes) in, {} out in {} segments ({} bytes), {} dropped, horizon {}, {} ms",
          d, r.versionsIn(), r.bytesIn(), r.versionsOut(), r.segments(), r.bytesOut(), r.versionsDropped(),
          HybridTimestamp.toString(r.horizon()), r.millis());
      return r;
    }
  }

  /**
   * Index entries at or after {@code from} in this server's log: written after a compaction's
   * watermark (or part of a transaction still undecided then), so left in the index. Entries in
   * other servers' logs are older than any watermark of this log (a takeover checkpoints first).
   */
  private LongPredicate tailAfter(LogPosition from) {
    Map<Long, Boolean> own = new HashMap<>();
    String ownLog = SharedPaths.store(fs, logDir);
    return pointer -> {
      long file = LogPointer.segment(pointer);
      boolean mine = own.computeIfAbsent(file, f -> {
        try {
          return SharedPaths.store(fs, files.path(f).getParent()).equals(ownLog);
        } catch (IOException ex) {
          return false; // not known here: not one of this log's segments
        }
      });
      return mine && (file > from.segment() || (file == from.segment() && LogPointer.offset(pointer) >= from.offset()));
    };
  }

  /** Checkpoints every tablet now. */
  public List<CheckpointEdit> checkpoint() throws IOException {
    return checkpointer.checkpointAll();
  }

  /**
   * One round of the log's garbage collection now (they also run every {@code log.gc.interval.ms}):
   * deletes this log's segments that no tablet manifest has needed in this round and the one before.
   */
  public LogCollector.Round collectLogGarbage() throws IOException {
    return garbage.round();
  }

  /** What recovery did when this engine opened. */
  public RecoveryReport recoveryReport() {
    return recovery;
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

  /**
   * The long reads on this server now: a scan kept open across calls begins one here before it
   * opens its cursors and ends it after closing them, so that compactions keep the versions it reads
   * and no file it reads is deleted under it.
   */
  public ReadsInProgress reads() {
    return segments.reads();
  }

  /** Completes, with the cause, if the log stops taking writes for good (see {@link LogWriter#stoppedForGood}). */
  public CompletableFuture<Throwable> logStopped() {
    return writer.stoppedForGood();
  }

  /** Stops checkpointing, writes out what is queued, closes the log and the file system. */
  @Override
  public void close() throws IOException {
    garbage.close();
    checkpointer.close();
    try {
      writer.close();
    } finally {
      try {
        segments.close();
      } finally {
        try {
          files.close();
        } finally {
          fs.close();
        }
      }
    }
  }
}
