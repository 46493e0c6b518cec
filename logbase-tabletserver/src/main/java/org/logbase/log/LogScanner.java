package org.logbase.log;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.files.ReadGuard;

/** Reads the whole log, or its tail from a position, segment after segment, in log order. */
public final class LogScanner {
  /** Receives each valid record in log order. */
  @FunctionalInterface
  public interface RecordSink {
    void accept(AppendedRecord record) throws IOException;
  }

  /**
   * What a scan read.
   *
   * @param records records handed to the sink (decoded)
   * @param skipped row versions the filter did not want, passed over without decoding their columns
   */
  public record Result(long records, long skipped, long bytes, long maxLsn, long maxTimestamp, int segments) {}

  private LogScanner() {}

  /**
   * Scans every segment at or after {@code from}: records of {@code from.segment()} from its offset,
   * later segments from their start. Damage is reported to {@code damage}; scanning continues with
   * the next segment after a torn tail (a writer that rolled after a failure leaves one behind).
   */
  public static Result scan(
      FileSystem fs, Path dir, LogPosition from, int maxFrameBytes, Consumer<LogDamage> damage, RecordSink sink)
      throws IOException {
    return scan(fs, dir, from, null, maxFrameBytes, damage, sink);
  }

  /**
   * Like {@link #scan(FileSystem, Path, LogPosition, int, Consumer, RecordSink)}, but stops before
   * {@code to} (null: the end). A bound lets a live server replay its own log up to what it has
   * made durable while the writer keeps appending behind it.
   */
  public static Result scan(
      FileSystem fs, Path dir, LogPosition from, LogPosition to, int maxFrameBytes, Consumer<LogDamage> damage,
      RecordSink sink) throws IOException {
    return scan(fs, dir, from, to, maxFrameBytes, damage, SegmentScanner.RowFilter.ALL, LogSeals.NONE, ReadGuard.NONE,
        sink);
  }

  /**
   * Like {@link #scan(FileSystem, Path, LogPosition, LogPosition, int, Consumer, RecordSink)}, handing
   * the sink only the row versions {@code filter} wants (and every record that is not a row version),
   * and reading no segment past the length it is sealed at in {@code seals}. Each segment is read
   * under {@code guard}'s hold of its file id (a segment's number), so that a log this server is
   * writing does not close a segment while this reads it.
   */
  public static Result scan(
      FileSystem fs, Path dir, LogPosition from, LogPosition to, int maxFrameBytes, Consumer<LogDamage> damage,
      SegmentScanner.RowFilter filter, LogSeals seals, ReadGuard guard, RecordSink sink) throws IOException {
    List<Long> segments = SegmentFiles.list(fs, dir);
    long count = 0;
    long skipped = 0;
    long bytes = 0;
    long maxLsn = 0;
    long maxTs = 0;
    int read = 0;
    for (long seg : segments) {
      if (seg < from.segment()) {
        continue;
      }
      if (to != null && seg > to.segment()) {
        break;
      }
      long offset = seg == from.segment() ? from.offset() : 0;
      read++;
      long end = to != null && seg == to.segment() ? to.offset() : Long.MAX_VALUE;
      long sealed = seals.sealedLength(seg);
      if (sealed != LogSeals.UNSEALED) {
        end = Math.min(end, sealed);
      }
      try (ReadGuard.Hold reading = guard.reading(seg);
          SegmentScanner s = SegmentScanner.open(fs, dir, seg, offset, end, maxFrameBytes, damage, filter)) {
        AppendedRecord r;
        while ((r = s.next()) != null) {
          if (to != null && seg == to.segment() && LogPointer.offset(r.pointer()) >= to.offset()) {
            break;
          }
          count++;
          bytes += r.frameLength();
          maxLsn = Math.max(maxLsn, r.record().lsn());
          maxTs = Math.max(maxTs, r.record().timestamp());
          sink.accept(r);
        }
        skipped += s.skipped();
        // Records passed over count too: the log continues above every LSN and timestamp in it.
        maxLsn = Math.max(maxLsn, s.lastLsn());
        maxTs = Math.max(maxTs, s.skippedMaxTimestamp());
      }
    }
    return new Result(count, skipped, bytes, maxLsn, maxTs, read);
  }
}
