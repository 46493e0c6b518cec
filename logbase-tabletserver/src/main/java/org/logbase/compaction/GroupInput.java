package org.logbase.compaction;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.logbase.common.Closeables;
import org.logbase.index.MultiVersionIndex;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.MergingIterator;
import org.logbase.tablet.SortedSegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a compaction of one column group reads, in entry order, over the tablet's range: the versions
 * its index names except the tail, merged with its earlier sorted segments ({@link MergingIterator},
 * the index's versions first, so that a version also in a segment is taken from the index, as reads
 * do).
 *
 * <p>The index's versions are read from the log one of two ways. If their records fit one chunk's
 * heap ({@code compaction.chunk.bytes}), or lie in one region of the log, they are read in chunks
 * of consecutive keys ({@link IndexEntries}), straight into the merge. Otherwise the log is cut into
 * regions of about a chunk each ({@link LogRegions}); each region's versions are read in log order
 * (a pass over the index picks them, in entry order) and written to a temporary sorted run ({@link
 * SortedRuns}), and the merge reads the runs. Reading key range by key range would read most of the
 * log once per chunk when rows were written in random order; by regions every part of it is read
 * once, for the price of writing and reading the runs.
 */
final class GroupInput implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupInput.class);

  private final ChunkReader reader;
  private final SortedRuns runs;
  private final MergingIterator entries;
  /** The index's versions read straight into the merge; null if they went through runs. */
  private final IndexEntries direct;
  private final int regions;
  private final int runChunks;

  private GroupInput(ChunkReader reader, SortedRuns runs, List<EntryIterator> layers, IndexEntries direct,
      int regions, int runChunks) {
    this.reader = reader;
    this.runs = runs;
    this.entries = new MergingIterator(layers);
    this.direct = direct;
    this.regions = regions;
    this.runChunks = runChunks;
  }

  /**
   * Reads (or, for a group whose versions span several regions of the log, writes the runs of) a
   * compaction's input.
   *
   * @param index the group's index
   * @param segments its earlier sorted segments
   * @param tail index entries (by pointer) left out: they stay in the index
   * @param chunkBytes the heap a chunk of the index's versions may take (estimated)
   * @param runs where runs go; closed (the runs deleted) with the input
   * @param what the group, for the server's log
   */
  static GroupInput open(MultiVersionIndex index, List<SortedSegment> segments, byte[] start, byte[] end,
      LongPredicate tail, ChunkReader reader, long chunkBytes, SortedRuns runs, Throttle throttle, String what)
      throws IOException {
    List<EntryIterator> layers = new ArrayList<>();
    try {
      List<LogRegions.Region> plan = LogRegions.plan(index.range(start, end), tail, chunkBytes);
      int chunks = 0;
      IndexEntries direct = null;
      if (plan.size() <= 1) {
        direct = new IndexEntries(new IndexChunks(index.range(start, end), tail, chunkBytes), reader);
        layers.add(direct);
      } else {
        long started = System.nanoTime();
        long planned = 0;
        long written = 0;
        for (LogRegions.Region region : plan) {
          IndexEntries e = new IndexEntries(
              new IndexChunks(index.range(start, end), p -> !region.holds(p) || tail.test(p), chunkBytes), reader);
          written += runs.write(e);
          planned += region.versions();
          chunks += e.chunksRead();
        }
        if (written != planned) {
          // The index's versions outside the tail do not change while a compaction runs; if they
          // did, the runs would miss some (the switch would drop them) or hold some twice.
          throw new IllegalStateException("compacting " + what + ": the runs hold " + written + " versions, the plan "
              + planned + "; the index changed under the compaction");
        }
        LOG.info("compacting {}: {} regions of the log read into {} runs ({} bytes, {} log reads of {} bytes) in {} ms",
            what, plan.size(), runs.count(), runs.bytesWritten(), reader.reads(), reader.bytesRead(),
            (System.nanoTime() - started) / 1_000_000);
        layers.addAll(runs.read());
      }
      for (SortedSegment s : segments) {
        layers.add(new ThrottledEntries(s.reader().scan(start, end, false), throttle));
      }
      return new GroupInput(reader, runs, layers, direct, plan.size(), chunks);
    } catch (IOException | RuntimeException e) {
      List<Closeable> all = new ArrayList<>(layers);
      all.add(runs);
      Closeables.closeAllAfter(all, e);
      throw e;
    }
  }

  /** The versions, in entry order. */
  EntryIterator entries() {
    return entries;
  }

  /** How the index's versions were read, for the server's log. */
  String describe() {
    if (direct != null) {
      return direct.chunksRead() + " chunks of the index, " + reader.reads() + " log reads of " + reader.bytesRead()
          + " bytes in all";
    }
    return regions + " regions of the log in " + runChunks + " chunks, " + reader.reads() + " log reads of "
        + reader.bytesRead() + " bytes, " + runs.count() + " runs of " + runs.bytesWritten() + " bytes ("
        + runs.merges() + " merged before the last merge)";
  }

  @Override
  public void close() throws IOException {
    Closeables.closeAll(List.of(entries, runs));
  }
}
