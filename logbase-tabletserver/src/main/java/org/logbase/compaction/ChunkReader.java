package org.logbase.compaction;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.logbase.compaction.IndexChunks.Pointer;
import org.logbase.log.LogPointer;
import org.logbase.log.RecordReader;

/**
 * Reads the records of one chunk of index entries with few, large, in-order reads: the pointers
 * sorted by (file, offset), those of one file that lie close together read with one positioned read
 * of the span that holds them (at most {@code windowBytes}, unless one record alone is larger; a gap
 * of more than {@code windowBytes / 8} between two records starts a new read instead of reading
 * it). The frames are packed in entry order into one array ({@link ChunkRecords}), decoded as the
 * merge takes them.
 */
final class ChunkReader {
  private static final Comparator<Pointer> LOG_ORDER = (a, b) -> Long.compareUnsigned(a.pointer(), b.pointer());

  private final RecordReader reader;
  private final int windowBytes;
  private final long maxGap;
  private final Throttle throttle;
  private long reads;
  private long bytesRead;

  ChunkReader(RecordReader reader, int windowBytes, Throttle throttle) {
    if (windowBytes < 1) {
      throw new IllegalArgumentException("a read window is at least 1 byte: " + windowBytes);
    }
    this.reader = reader;
    this.windowBytes = windowBytes;
    this.maxGap = windowBytes / 8;
    this.throttle = throttle;
  }

  /** The records of {@code chunk} (in entry order), read from the log in log order. */
  ChunkRecords read(List<Pointer> chunk) throws IOException {
    Integer[] byPosition = new Integer[chunk.size()];
    int[] at = new int[chunk.size()];
    long total = 0;
    for (int i = 0; i < byPosition.length; i++) {
      byPosition[i] = i;
      at[i] = Math.toIntExact(total);
      total += chunk.get(i).frameLength();
    }
    byte[] frames = new byte[Math.toIntExact(total)];
    Arrays.sort(byPosition, (a, b) -> LOG_ORDER.compare(chunk.get(a), chunk.get(b)));
    int i = 0;
    while (i < byPosition.length) {
      Pointer first = chunk.get(byPosition[i]);
      long file = LogPointer.segment(first.pointer());
      long start = LogPointer.offset(first.pointer());
      long end = start + first.frameLength();
      int j = i + 1;
      while (j < byPosition.length) {
        Pointer p = chunk.get(byPosition[j]);
        long offset = LogPointer.offset(p.pointer());
        long pEnd = offset + p.frameLength();
        if (LogPointer.segment(p.pointer()) != file || offset - end > maxGap || Math.max(end, pEnd) - start > windowBytes) {
          break;
        }
        end = Math.max(end, pEnd);
        j++;
      }
      byte[] span = new byte[Math.toIntExact(end - start)];
      reader.readSpan(file, start, span);
      reads++;
      bytesRead += span.length;
      throttle.acquire(span.length);
      for (int k = i; k < j; k++) {
        int e = byPosition[k];
        Pointer p = chunk.get(e);
        System.arraycopy(span, (int) (LogPointer.offset(p.pointer()) - start), frames, at[e], p.frameLength());
      }
      i = j;
    }
    return new ChunkRecords(chunk, frames, at, reader);
  }

  /** Positioned reads made so far. */
  long reads() {
    return reads;
  }

  /** Bytes those reads returned (the records and the gaps between them read along). */
  long bytesRead() {
    return bytesRead;
  }
}
