package org.logbase.compaction;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.sorted.Compression;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.SegmentIdentity;
import org.logbase.sorted.SegmentOptions;
import org.logbase.sorted.SegmentStats;
import org.logbase.sorted.SortedEntry;
import org.logbase.sorted.SortedFormats;
import org.logbase.sorted.SortedSegmentWriter;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.TabletDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites one (tablet, column group) into one new sorted segment: its versions in the tablet's
 * range from its index (all but the tail after the watermark) and from its segments ({@link
 * GroupInput}), row by row through {@link RowRetention}. Reads and writes go on meanwhile: the index
 * is read through a cursor, the log records it points at and the segments are immutable.
 */
final class GroupCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(GroupCompaction.class);
  /** A long run logs a progress line this often. */
  private static final long PROGRESS_NANOS = 10_000_000_000L;
  /** What was written. */
  record Result(Path path, long fileId, SegmentStats stats, long versionsIn, long bytesIn, long versionsOut) {}

  /** How the index's versions are read: chunks of at most {@code chunkBytes}, log reads of at most {@code windowBytes}. */
  record Reading(long chunkBytes, int windowBytes) {}

  private GroupCompaction() {}

  /**
   * @param group the group as the tablet's schema has it now (its policy)
   * @param tail index entries (by pointer) that stay in the index
   * @return the segment written; null if no version survived (nothing written)
   */
  static Result run(FileSystem fs, Path path, long fileId, TabletDescriptor d, GroupIndex g, ColumnGroup group,
      ChunkReader reader, Reading reading, LongPredicate tail, RowRetention retention, Throttle throttle)
      throws IOException {
    long started = System.nanoTime();
    long lastProgress = started;
    SegmentIdentity id = new SegmentIdentity(fileId, d.schema().id(), d.tabletId(), group.id());
    long in = 0;
    long bytesIn = 0;
    long out = 0;
    try (GroupInput input = GroupInput.open(g.index(), g.segments(), d.startKey(), d.endKey(), tail, reader,
            reading.chunkBytes(), new SortedRuns(fs, path.getParent(), id, throttle), throttle, d + "/" + group.name());
        SortedSegmentWriter w = SortedFormats.current().create(fs, path, id,
            SegmentOptions.defaults(Compression.valueOf(group.policy().compression().name())))) {
      EntryIterator c = input.entries();
      List<SortedEntry> row = new ArrayList<>();
      while (c.hasNext()) {
        byte[] key = c.peek().rowKey();
        row.clear();
        while (c.hasNext() && Arrays.equals(c.peek().rowKey(), key)) {
          SortedEntry e = c.next();
          row.add(e);
          bytesIn += ThrottledEntries.bytes(e);
        }
        long now = System.nanoTime();
        if (now - lastProgress > PROGRESS_NANOS) {
          LOG.info("compacting {}/{}: {} versions ({} bytes) read, {} written, {} s so far", d, group.name(), in,
              bytesIn, out, (now - started) / 1_000_000_000);
          lastProgress = now;
        }
        in += row.size();
        for (SortedEntry e : retention.keep(row)) {
          w.append(e);
          out++;
        }
      }
      LOG.info("compacting {}/{}: {} versions in, {} out, {} ms: {}", d, group.name(), in, out,
          (System.nanoTime() - started) / 1_000_000, input.describe());
      if (out == 0) {
        return new Result(null, fileId, null, in, bytesIn, 0); // the writer's close deletes the empty file
      }
      return new Result(path, fileId, w.finish(), in, bytesIn, out);
    }
  }
}
