package org.logbase.compaction;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.files.FileIds;
import org.logbase.index.BLinkTree;
import org.logbase.index.IndexCursor;
import org.logbase.index.MultiVersionIndex;
import org.logbase.log.RecordReader;
import org.logbase.sorted.SortedFormats;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.SortedSegment;
import org.logbase.tablet.SortedSegments;
import org.logbase.tablet.TabletDescriptor;

/**
 * One compaction of one tablet, in two steps. {@link #write} runs while the tablet serves: for each
 * column group, one new sorted segment of what survives ({@link RowRetention}) of its index (all but
 * the tail after the watermark) and its earlier segments. {@link Written#switchTo} then builds the
 * groups the tablet serves from afterwards, called by the engine while no log batch is applied: the
 * index keeps only the tail, the new segment replaces the earlier ones. The engine checkpoints them
 * next, and that manifest edit is the switch on disk: a crash before it leaves the earlier files in
 * force, after it the new ones (docs/architecture.md, "Compaction").
 */
public final class TabletCompaction {
  /** The GC horizon trails the clock by this much: a snapshot older than that may be refused. */
  public static final String RETENTION_MS = "compaction.retention.ms";
  static final long DEFAULT_RETENTION_MS = 10 * 60 * 1000;
  /** Versions written by transactions this recent are kept whatever else applies. */
  public static final String TXN_RETENTION_MS = "compaction.txn.retention.ms";
  static final long DEFAULT_TXN_RETENTION_MS = 24 * 3600 * 1000;
  /**
   * Bytes a compaction moves per second at most (0: no limit): the log bytes it reads, the versions
   * of its temporary runs written and read back, and the versions of earlier segments it reads.
   */
  public static final String THROUGHPUT = "compaction.throughput.bytes.per.sec";
  static final long DEFAULT_THROUGHPUT = 16L << 20;
  /**
   * The nice value (1 to 19, Linux) of the thread a server runs its compactions on, and so of the
   * threads that starts (a segment's and a run's HDFS streamers); 0 leaves it at the server's. On 2
   * cores a compaction at the server's priority took a core's time slices from the writers and
   * getters it ran beside (docs/benchmarks.md, "Compaction", stop 40).
   */
  public static final String THREAD_NICE = "compaction.thread.nice";
  static final int DEFAULT_THREAD_NICE = 10;
  /**
   * Heap a compaction may fill with one chunk of the index's versions and their records' frames
   * (estimated: frame and key bytes plus 80 per version). The index is read chunk by chunk, each
   * chunk's records in log order.
   */
  public static final String CHUNK_BYTES = "compaction.chunk.bytes";
  static final long DEFAULT_CHUNK_BYTES = 64L << 20;
  /** At most this many bytes of log in one read of a chunk's records (several records, in log order). */
  public static final String READ_WINDOW_BYTES = "compaction.read.window.bytes";
  static final long DEFAULT_READ_WINDOW_BYTES = 256L << 10;

  private final FileSystem fs;
  private final FileIds ids;
  private final RecordReader reader;
  private final long retentionMs;
  private final long txnRetentionMs;
  private final long bytesPerSecond;
  private final GroupCompaction.Reading reading;

  /** The nice value compactions run at ({@link #THREAD_NICE}): 0 (the server's), or 1 to 19. */
  public static int threadNice(Config config) {
    int nice = config.getInt(THREAD_NICE, DEFAULT_THREAD_NICE);
    if (nice < 0 || nice > 19) {
      throw new IllegalArgumentException(THREAD_NICE + " must be 0 (the server's priority) to 19, not " + nice);
    }
    return nice;
  }

  public TabletCompaction(FileSystem fs, FileIds ids, RecordReader reader, Config config) {
    this.fs = fs;
    this.ids = ids;
    this.reader = reader;
    this.retentionMs = config.getLong(RETENTION_MS, DEFAULT_RETENTION_MS);
    this.txnRetentionMs = config.getLong(TXN_RETENTION_MS, DEFAULT_TXN_RETENTION_MS);
    this.bytesPerSecond = config.getBytes(THROUGHPUT, DEFAULT_THROUGHPUT);
    if (retentionMs < 0 || txnRetentionMs < 0 || bytesPerSecond < 0) {
      throw new IllegalArgumentException(RETENTION_MS + ", " + TXN_RETENTION_MS + " and " + THROUGHPUT
          + " must not be negative");
    }
    long chunkBytes = config.getBytes(CHUNK_BYTES, DEFAULT_CHUNK_BYTES);
    long windowBytes = config.getBytes(READ_WINDOW_BYTES, DEFAULT_READ_WINDOW_BYTES);
    if (chunkBytes < 1 || chunkBytes > 1L << 30 || windowBytes < 1 || windowBytes > 1L << 30) {
      throw new IllegalArgumentException(CHUNK_BYTES + " and " + READ_WINDOW_BYTES + " must be between 1 and 1g");
    }
    this.reading = new GroupCompaction.Reading(chunkBytes, (int) windowBytes);
  }

  /** The new segments, written; not yet in force. */
  public final class Written {
    private final TabletDescriptor tablet;
    private final long horizon;
    private final List<GroupCompaction.Result> results;
    private final long startNanos;

    private Written(TabletDescriptor tablet, long horizon, List<GroupCompaction.Result> results, long startNanos) {
      this.tablet = tablet;
      this.horizon = horizon;
      this.results = results;
      this.startNanos = startNanos;
    }

    /**
     * The groups to serve from now on, built from {@code current} (the groups served now, the same
     * the segments were written from): each index keeps the entries {@code tail} accepts, and the new
     * segment (if any) replaces the earlier ones. Call while no log batch is applied, so that no
     * entry reaches the old index after the copy.
     */
    public GroupIndex[] switchTo(GroupIndex[] current, LongPredicate tail, SortedSegments segments) throws IOException {
      GroupIndex[] next = new GroupIndex[current.length];
      for (int i = 0; i < current.length; i++) {
        GroupIndex g = current[i];
        if (g == null) {
          continue;
        }
        GroupCompaction.Result r = results.get(i);
        List<SortedSegment> segs = r == null || r.path() == null ? List.of() : List.of(segments.open(r.fileId(), r.path()));
        next[i] = new GroupIndex(g.tablet(), g.group(), tailOf(g.index(), tail), segs, Math.max(horizon, g.gcHorizon()),
            g.loadedLsn());
        next[i].mustCheckpoint();
      }
      return next;
    }

    /** Deletes the new segments: the switch did not happen (the tablet closed or changed meanwhile). */
    public void abandon() throws IOException {
      for (GroupCompaction.Result r : results) {
        if (r != null && r.path() != null) {
          fs.delete(r.path(), false);
        }
      }
    }

    public CompactionReport report() {
      long bytesIn = 0;
      long bytesOut = 0;
      long in = 0;
      long out = 0;
      int segs = 0;
      for (GroupCompaction.Result r : results) {
        if (r != null) {
          bytesIn += r.bytesIn();
          in += r.versionsIn();
          out += r.versionsOut();
          if (r.stats() != null) {
            bytesOut += r.stats().fileBytes();
            segs++;
          }
        }
      }
      return new CompactionReport(tablet.schema().name() + "/" + tablet.tabletId(), bytesIn, bytesOut, in, out, in - out,
          segs, horizon, (System.nanoTime() - startNanos) / 1_000_000);
    }
  }

  /**
   * Writes the new segments of a served tablet into {@code dir}.
   *
   * @param tail the index entries (by pointer) at or after the watermark: left in the index
   * @param oldestHeld the oldest snapshot clients hold (0: none): the GC horizon stays at or below it
   */
  public Written write(TabletDescriptor d, GroupIndex[] groups, Path dir, LongPredicate tail, long nowMs,
      long oldestHeld) throws IOException {
    long t0 = System.nanoTime();
    long horizon = horizon(nowMs, oldestHeld);
    List<GroupCompaction.Result> results = new ArrayList<>();
    Throttle throttle = new Throttle(bytesPerSecond);
    try {
      for (GroupIndex g : groups) {
        if (g == null) {
          results.add(null);
          continue;
        }
        // The group as the tablet's schema has it now: an alter may have changed its policy.
        ColumnGroup group = d.schema().columnGroups().stream().filter(x -> x.id() == g.group().id()).findFirst()
            .orElse(g.group());
        RowRetention retention = new RowRetention(group.policy(), group.columns(), Math.max(horizon, g.gcHorizon()), nowMs,
            txnRetentionMs);
        long id = ids.next();
        Path path = new Path(dir, SortedFormats.fileName(id));
        results.add(GroupCompaction.run(fs, path, id, d, g, group, new ChunkReader(reader, reading.windowBytes(), throttle),
            reading, tail, retention, throttle));
      }
    } catch (IOException | RuntimeException e) {
      new Written(d, horizon, results, t0).abandon();
      throw e;
    }
    return new Written(d, horizon, results, t0);
  }

  /**
   * The GC horizon: the clock less the retention window, and no later than the oldest snapshot a
   * client holds, so that such a snapshot reads what it read before.
   */
  long horizon(long nowMs, long oldestHeld) {
    long h = HybridTimestamp.of(Math.max(0, nowMs - retentionMs), 0);
    return oldestHeld > 0 ? Math.min(h, oldestHeld) : h;
  }

  private static MultiVersionIndex tailOf(MultiVersionIndex index, LongPredicate tail) {
    MultiVersionIndex out = BLinkTree.builder().build();
    for (IndexCursor c = index.range(null, null); c.next(); ) {
      if (tail.test(c.pointer())) {
        out.put(c.key(), c.timestamp(), c.pointer(), c.meta());
      }
    }
    return out;
  }
}
