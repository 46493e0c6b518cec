package org.logbase.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.logbase.common.CorruptRecordException;
import org.logbase.files.Leases;

/**
 * Reads one segment front to back, for recovery and full scans. Returns only records whose CRC holds.
 * Where a frame is invalid it looks for the next valid frame further on: if there is one, the bytes
 * in between are reported as {@link LogDamage.Kind#CORRUPT} and skipped; if there is none, they are
 * the segment's {@link LogDamage.Kind#TORN_TAIL} and the scan ends there. Damage goes to a sink;
 * it is never returned as data.
 */
public final class SegmentScanner implements Closeable {
  private static final int CHUNK_BYTES = 4 << 20;

  /**
   * Which row versions a scan wants, judged from the frame header alone: the others are passed over
   * without decoding their columns. Records that are not row versions (decisions, PREPARE) are
   * always returned.
   */
  @FunctionalInterface
  public interface RowFilter {
    RowFilter ALL = (table, key) -> true;

    boolean wanted(int tableId, byte[] key);
  }

  private final FSDataInputStream in;
  private final long segment;
  private final long length;
  private final int maxFrameBytes;
  private final Consumer<LogDamage> damage;
  private final String name;
  private final RowFilter filter;

  private byte[] buf = new byte[CHUNK_BYTES];
  private long bufStart;
  private int bufLen;
  private long pos;
  private long lastLsn;
  private long skipped;
  private long skippedMaxTimestamp;
  private boolean ended;

  private SegmentScanner(
      FSDataInputStream in, long segment, long length, int maxFrameBytes, Consumer<LogDamage> damage, String name,
      RowFilter filter) {
    this.in = in;
    this.filter = filter;
    this.segment = segment;
    this.length = length;
    this.maxFrameBytes = maxFrameBytes;
    this.damage = damage;
    this.name = name;
  }

  /**
   * Opens segment {@code segment} of the log in {@code dir} and positions at {@code offset} (0 or
   * {@link SegmentFiles#HEADER_BYTES} start at the first record).
   */
  public static SegmentScanner open(
      FileSystem fs, Path dir, long segment, long offset, int maxFrameBytes, Consumer<LogDamage> damage)
      throws IOException {
    return open(fs, dir, segment, offset, Long.MAX_VALUE, maxFrameBytes, damage, RowFilter.ALL);
  }

  /**
   * Like {@link #open(FileSystem, Path, long, long, int, Consumer)}, returning only the row versions
   * {@code filter} wants, and reading nothing at or after offset {@code end} (a batch boundary: a
   * live log's writer may be appending beyond it).
   */
  public static SegmentScanner open(
      FileSystem fs, Path dir, long segment, long offset, long end, int maxFrameBytes, Consumer<LogDamage> damage,
      RowFilter filter) throws IOException {
    Path p = SegmentFiles.path(dir, segment);
    FSDataInputStream in = Leases.open(fs, p);
    long length = fs.getFileStatus(p).getLen();
    if (in instanceof HdfsDataInputStream h) {
      // A file whose writer died before closing it reports only its finished blocks in its status.
      length = Math.max(length, h.getVisibleLength());
    }
    length = Math.min(length, end);
    SegmentScanner s = new SegmentScanner(in, segment, length, maxFrameBytes, damage, p.toString(), filter);
    try {
      s.start(offset);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private void start(long offset) throws IOException {
    if (length < SegmentFiles.HEADER_BYTES) {
      if (length > 0) {
        damage.accept(new LogDamage(LogDamage.Kind.TORN_TAIL, segment, 0, length, "incomplete segment header"));
      }
      ended = true;
      return;
    }
    byte[] h = new byte[SegmentFiles.HEADER_BYTES];
    in.readFully(0, h);
    String bad = SegmentFiles.checkHeader(h, segment);
    if (bad != null) {
      damage.accept(new LogDamage(LogDamage.Kind.CORRUPT, segment, 0, length, bad + " in " + name));
      ended = true;
      return;
    }
    pos = Math.max(offset, SegmentFiles.HEADER_BYTES);
  }

  /** The next valid record, or null at the end of the valid part of the segment. */
  public AppendedRecord next() throws IOException {
    while (!ended) {
      if (pos >= length) {
        ended = true;
        return null;
      }
      int frameLength = validFrameAt(pos);
      if (frameLength > 0 && filter != RowFilter.ALL) {
        RecordCodec.Header h = RecordCodec.peek(buf, (int) (pos - bufStart), frameLength);
        if (h != null && h.type().isRowVersion() && !filter.wanted(h.tableId(), h.key())) {
          pos += frameLength;
          lastLsn = h.lsn();
          skippedMaxTimestamp = Math.max(skippedMaxTimestamp, h.timestamp());
          skipped++;
          continue;
        }
      }
      if (frameLength > 0) {
        AppendedRecord r = decodeAt(pos, frameLength);
        pos += frameLength;
        lastLsn = r.record().lsn();
        return r;
      }
      resyncFrom(pos);
    }
    return null;
  }

  /** Offset just after the last record returned (or where the scan started). */
  public long position() {
    return pos;
  }

  public long segment() {
    return segment;
  }

  /** The LSN of the last valid frame read, returned or passed over. */
  public long lastLsn() {
    return lastLsn;
  }

  /** The largest timestamp of the row versions passed over. */
  public long skippedMaxTimestamp() {
    return skippedMaxTimestamp;
  }

  /** Row versions passed over by the filter, undecoded. */
  public long skipped() {
    return skipped;
  }

  /** Length of a valid frame at {@code p}, or 0 if the bytes there are not one. */
  private int validFrameAt(long p) throws IOException {
    if (length - p < RecordCodec.FRAME_HEADER_BYTES || !ensure(p, RecordCodec.FRAME_HEADER_BYTES)) {
      return 0;
    }
    int at = (int) (p - bufStart);
    long frameLength = (RecordCodec.bodyLength(buf, at) & 0xffff_ffffL) + RecordCodec.FRAME_HEADER_BYTES;
    if (frameLength < RecordCodec.MIN_FRAME_BYTES || frameLength > maxFrameBytes || p + frameLength > length) {
      return 0;
    }
    if (!ensure(p, (int) frameLength)) {
      return 0;
    }
    at = (int) (p - bufStart);
    if (!RecordCodec.isValid(buf, at, (int) frameLength)) {
      return 0;
    }
    long lsn = ByteBuffer.wrap(buf).getLong(at + RecordCodec.FRAME_HEADER_BYTES + 4);
    // A stale copy of an older record (or a chance CRC match) cannot move the log backwards. Equal
    // LSNs occur when a failed batch was retried; replay tolerates those.
    return lsn >= lastLsn ? (int) frameLength : 0;
  }

  private AppendedRecord decodeAt(long p, int frameLength) {
    try {
      // validFrameAt checked length and CRC already.
      LogRecord r = RecordCodec.decodeChecked(buf, (int) (p - bufStart), frameLength, name);
      return new AppendedRecord(r, LogPointer.pointer(segment, p), frameLength);
    } catch (CorruptRecordException e) {
      // A frame whose CRC holds but whose body does not parse was written by a buggy writer.
      throw new IllegalStateException("frame with a valid CRC did not decode at " + name + " offset " + p, e);
    }
  }

  /** Skips invalid bytes at {@code bad}: to the next valid frame (corruption) or to the end (torn tail). */
  private void resyncFrom(long bad) throws IOException {
    for (long p = bad + 1; p + RecordCodec.MIN_FRAME_BYTES <= length; p++) {
      if (validFrameAt(p) > 0) {
        damage.accept(new LogDamage(LogDamage.Kind.CORRUPT, segment, bad, p - bad,
            "invalid frame in " + name + "; skipped to the next valid record"));
        pos = p;
        return;
      }
    }
    damage.accept(new LogDamage(LogDamage.Kind.TORN_TAIL, segment, bad, length - bad,
        "no valid record after offset " + bad + " in " + name));
    pos = bad;
    ended = true;
  }

  /** Makes bytes [p, p+n) available in buf; false if the file ends before. */
  private boolean ensure(long p, int n) throws IOException {
    if (p + n > length) {
      return false;
    }
    if (p >= bufStart && p + n <= bufStart + bufLen) {
      return true;
    }
    int want = (int) Math.min(Math.max(n, CHUNK_BYTES), length - p);
    if (buf.length < want) {
      buf = new byte[want];
    }
    in.seek(p);
    in.readFully(buf, 0, want);
    bufStart = p;
    bufLen = want;
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
