package org.logbase.log;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.CorruptRecordException;

/**
 * Positioned reads of single records. Keeps one open stream per segment; positioned reads on it are
 * safe from many threads at once (HDFS pread, RawLocalFileSystem's channel reads).
 */
public final class RecordReader implements Closeable {
  private final FileSystem fs;
  private final Path dir;
  private final ConcurrentHashMap<Long, FSDataInputStream> streams = new ConcurrentHashMap<>();

  public RecordReader(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  /**
   * Reads and checks the record at {@code pointer}.
   *
   * @throws CorruptRecordException if the bytes there fail their CRC or do not parse
   */
  public LogRecord read(long pointer, int frameLength) throws IOException {
    byte[] frame = readFrame(pointer, frameLength);
    return RecordCodec.decode(frame, 0, frameLength, new Where(pointer));
  }

  /** The raw frame bytes at {@code pointer}, unchecked. */
  public byte[] readFrame(long pointer, int frameLength) throws IOException {
    long segment = LogPointer.segment(pointer);
    long offset = LogPointer.offset(pointer);
    byte[] frame = new byte[frameLength];
    try {
      stream(segment).readFully(offset, frame);
    } catch (EOFException e) {
      // A stream opened while the segment was shorter may not see later flushed bytes: reopen once.
      FSDataInputStream stale = streams.remove(segment);
      if (stale != null) {
        stale.close();
      }
      stream(segment).readFully(offset, frame);
    }
    return frame;
  }

  /** Closes the stream of a segment that is going away (compaction, tablet moves). */
  public void forget(long segment) throws IOException {
    FSDataInputStream s = streams.remove(segment);
    if (s != null) {
      s.close();
    }
  }

  private FSDataInputStream stream(long segment) throws IOException {
    FSDataInputStream s = streams.get(segment);
    if (s != null) {
      return s;
    }
    FSDataInputStream opened = fs.open(SegmentFiles.path(dir, segment));
    FSDataInputStream raced = streams.putIfAbsent(segment, opened);
    if (raced != null) {
      opened.close();
      return raced;
    }
    return opened;
  }

  /** Names a place in the log for an error message; the string is built only if one is needed. */
  private final class Where {
    private final long pointer;

    Where(long pointer) {
      this.pointer = pointer;
    }

    @Override
    public String toString() {
      return SegmentFiles.path(dir, LogPointer.segment(pointer)) + " offset " + LogPointer.offset(pointer);
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (Long seg : streams.keySet()) {
      try {
        forget(seg);
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
