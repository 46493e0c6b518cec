package org.logbase.compaction;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.MergingIterator;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.SortedSegment;

/**
 * What a compaction of one column group reads, in entry order, over the tablet's range: the versions
 * its index names except the tail ({@link IndexEntries}: chunk by chunk, each chunk's records read
 * from the log in log order), merged with its earlier sorted segments ({@link MergingIterator},
 * the index first, so that a version also in a segment is taken from the index, as reads do).
 */
final class GroupInput implements Closeable {
  private final IndexEntries index;
  private final ChunkReader reader;
  private final MergingIterator entries;

  /**
   * @param tail index entries (by pointer) left out: they stay in the index
   * @param chunkBytes the heap a chunk of the index's versions may take (estimated)
   * @param throttle what the segments' versions count against (the reader counts the log's)
   */
  GroupInput(GroupIndex g, byte[] start, byte[] end, LongPredicate tail, ChunkReader reader, long chunkBytes,
      Throttle throttle) {
    this.reader = reader;
    this.index = new IndexEntries(new IndexChunks(g.index().range(start, end), tail, chunkBytes), reader);
    List<EntryIterator> layers = new ArrayList<>();
    layers.add(index);
    for (SortedSegment s : g.segments()) {
      layers.add(new ThrottledEntries(s.reader().scan(start, end, false), throttle));
    }
    this.entries = new MergingIterator(layers);
  }

  /** The versions, in entry order. */
  EntryIterator entries() {
    return entries;
  }

  /** How the index's versions were read, for the server's log. */
  String describe() {
    return index.chunksRead() + " chunks of the index, " + reader.reads() + " log reads of " + reader.bytesRead()
        + " bytes in all";
  }

  @Override
  public void close() throws IOException {
    entries.close();
  }
}
