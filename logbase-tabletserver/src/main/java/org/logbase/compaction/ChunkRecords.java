package org.logbase.compaction;

import java.util.List;
import org.logbase.compaction.IndexChunks.Pointer;
import org.logbase.log.LogRecord;
import org.logbase.log.RecordReader;
import org.logbase.log.RecordType;
import org.logbase.sorted.SortedEntry;

/**
 * One chunk of index entries, in entry order, with the frames of their records as read from the log,
 * packed in one array (no object per record until one is asked for). {@link #entry} checks and
 * decodes a frame: the version's key, timestamp and kind are the index's, its transaction id and
 * columns the record's.
 */
final class ChunkRecords {
  private final List<Pointer> pointers;
  private final byte[] frames;
  private final int[] at;
  private final RecordReader reader;

  /**
   * @param pointers the chunk, in entry order
   * @param frames the records' frames
   * @param at where the frame of {@code pointers.get(i)} starts in {@code frames}
   */
  ChunkRecords(List<Pointer> pointers, byte[] frames, int[] at, RecordReader reader) {
    this.pointers = pointers;
    this.frames = frames;
    this.at = at;
    this.reader = reader;
  }

  int size() {
    return pointers.size();
  }

  /**
   * Version {@code i} of the chunk.
   *
   * @throws org.logbase.common.CorruptRecordException if its frame fails its CRC or does not parse
   */
  SortedEntry entry(int i) {
    Pointer p = pointers.get(i);
    LogRecord r = reader.decode(frames, at[i], p.frameLength(), p.pointer());
    return new SortedEntry(p.key(), p.timestamp(), p.isTombstone() ? RecordType.TOMBSTONE : RecordType.DATA, r.txnId(),
        p.isTombstone() ? List.of() : r.columns());
  }
}
