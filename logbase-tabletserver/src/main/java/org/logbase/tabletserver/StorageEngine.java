package org.logbase.tabletserver;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.LogConfig;
import org.logbase.log.LogFileSystems;
import org.logbase.log.LogPosition;
import org.logbase.log.LogStats;
import org.logbase.log.LogWriter;
import org.logbase.log.RecordReader;
import org.logbase.recovery.CheckpointManifest;
import org.logbase.recovery.CheckpointStore;
import org.logbase.recovery.Checkpointer;
import org.logbase.recovery.LogRecovery;
import org.logbase.recovery.RecoveryReport;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.HybridClock;
import org.logbase.tablet.IndexApplier;
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
 * (a crash included) before it accepts a write.
 */
public final class StorageEngine implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(StorageEngine.class);

  private final FileSystem fs;
  private final LogWriter writer;
  private final RecordReader reader;
  private final Checkpointer checkpointer;
  private final Map<TabletId, Tablet> tablets = new LinkedHashMap<>();
  private final RecoveryReport recovery;
  private final RecordCache cache;
  private final TimestampSource clock;

  private StorageEngine(
      FileSystem fs, LogWriter writer, RecordReader reader, Checkpointer checkpointer, RecoveryReport recovery,
      RecordCache cache, TimestampSource clock) {
    this.fs = fs;
    this.writer = writer;
    this.reader = reader;
    this.checkpointer = checkpointer;
    this.recovery = recovery;
    this.cache = cache;
    this.clock = clock;
  }

  /** Opens (and recovers) the engine; the tablets in the options are served once this returns. */
  public static StorageEngine open(EngineOptions o) throws IOException {
    Objects.requireNonNull(o.root(), "root");
    FileSystem fs = LogFileSystems.open(o.root(), o.hadoop());
    try {
      return open(o, fs);
    } catch (IOException | RuntimeException e) {
      fs.close();
      throw e;
    }
  }

  private static StorageEngine open(EngineOptions o, FileSystem fs) throws IOException {
    Path root = new Path(o.root());
    Path logDir = new Path(root, "log");
    LogConfig logConfig = LogConfig.from(o.config());
    CheckpointStore checkpoints = new CheckpointStore(fs, new Path(root, "checkpoints"), o.faults());

    LogRecovery.Result r = LogRecovery.recover(
        fs, logDir, checkpoints, o.tablets(), logConfig, o.useCheckpoints(), o.faults());
    TimestampSource clock = o.clock() != null ? o.clock() : new HybridClock();
    clock.observe(r.maxTimestamp());

    RecordCache cache = RecordCaches.create(o.config());
    IndexApplier applier = new IndexApplier(r.indexes(), cache,
        new IndexApplier.Watermark(r.nextLsn() - 1, new LogPosition(r.nextSegment(), 0)));
    LogWriter writer = LogWriter.open(fs, logDir, logConfig, r.nextLsn(), applier::applyBatch, o.faults());
    RecordReader reader = new RecordReader(fs, logDir);
    RecordStore store = new RecordStore(writer, reader, cache);

    List<GroupIndex> all = new ArrayList<>();
    r.indexes().values().forEach(g -> Arrays.stream(g).filter(Objects::nonNull).forEach(all::add));
    Checkpointer checkpointer = new Checkpointer(checkpoints, all, applier::watermark, o.config());
    StorageEngine engine = new StorageEngine(fs, writer, reader, checkpointer, r.report(), cache, clock);
    TabletLimits limits = TabletLimits.from(o.config());
    for (TabletDescriptor d : o.tablets()) {
      engine.tablets.put(d.id(), new Tablet(d, r.indexes().get(d.id()), store, clock, limits));
    }
    checkpointer.start();
    LOG.info("storage engine open at {} with {} tablets", o.root(), o.tablets().size());
    return engine;
  }

  /** The tablet with these ids; throws if this engine does not serve it. */
  public Tablet tablet(TabletId id) {
    Tablet t = tablets.get(id);
    if (t == null) {
      throw new IllegalArgumentException("this server does not serve tablet " + id);
    }
    return t;
  }

  /** The first tablet of the named table whose range holds {@code key}. */
  public Tablet tabletFor(String table, byte[] key) {
    for (Tablet t : tablets.values()) {
      if (t.descriptor().schema().name().equals(table) && t.descriptor().contains(key)) {
        return t;
      }
    }
    throw new IllegalArgumentException("no tablet of table '" + table + "' holds that key on this server");
  }

  public List<Tablet> tablets() {
    return List.copyOf(tablets.values());
  }

  /** Checkpoints every index now. */
  public List<CheckpointManifest> checkpoint() throws IOException {
    return checkpointer.checkpointAll();
  }

  public RecoveryReport recoveryReport() {
    return recovery;
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
