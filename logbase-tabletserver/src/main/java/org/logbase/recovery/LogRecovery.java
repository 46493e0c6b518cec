package org.logbase.recovery;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.files.Leases;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogConfig;
import org.logbase.log.LogSeals;
import org.logbase.log.SegmentFiles;
import org.logbase.log.SegmentScanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's recovery on start: fences and seals its log, replays it to the end for the tablets whose tails
 * are in it ({@link Replay}), and finds where the log continues (next LSN, the first file id a new
 * segment may have). Tablets opened later are rebuilt by a {@link Replay} of their own, which the
 * storage engine joins to the live path.
 */
public final class LogRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);
  private static final Duration FENCE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The rebuilt state a server starts serving from, and where its log continues.
   *
   * @param nextSegment above every segment of the log: a position in it is before every new record
   */
  public record Result(Replay replay, long nextLsn, long maxTimestamp, long nextSegment) {}

  private LogRecovery() {}

  /**
   * Fences and seals a log whose writer is gone, given its segments as listed before the caller
   * learnt that: on HDFS the lease of every segment is recovered (a writer that was only paused can
   * never flush into them again), and on any file system the newest segment is sealed at its length
   * ({@link LogSeals}), so that this reader and every later one stop there. Listing first matters:
   * a server's next incarnation creates its first segment only after it registered, so a segment
   * listed while the server was not registered is its dead incarnation's.
   *
   * @return the length the newest segment is sealed at (this one or an earlier reader's), or -1 for a
   *     log without segments
   */
  public static long seal(FileSystem fs, Path logDir, List<Long> segments, LogSeals seals) throws IOException {
    for (long s : segments) {
      try {
        Leases.recover(fs, SegmentFiles.path(logDir, s), FENCE_TIMEOUT);
      } catch (FileNotFoundException e) {
        // Deleted since it was listed: the log's garbage collection (a gone server's log is collected
        // by the live ones) deletes only segments no tablet reads, older than the newest with a record.
        LOG.info("segment {} of {} was deleted meanwhile (collected): nothing to fence", s, logDir);
      }
    }
    if (segments.isEmpty()) {
      return -1;
    }
    long newest = segments.get(segments.size() - 1);
    long length = fs.getFileStatus(SegmentFiles.path(logDir, newest)).getLen();
    long sealed = seals.seal(newest, length);
    if (sealed != length) {
      LOG.info("segment {} of {} was sealed at {} bytes before (it has {} now)", newest, logDir, sealed, length);
    } else {
      LOG.info("sealed segment {} of {} at {} bytes", newest, logDir, sealed);
    }
    return sealed;
  }

  /**
   * Recovers a server's log on start: fences and seals it (a previous incarnation, dead or only
   * paused, may hold its last segment open), runs the replay to the end of the log, and finds where
   * the log continues.
   *
   * @param replay the tablets whose tails are in this log, checkpoints loaded
   * @param anyTablets whether the replay has tablets (without, the log's last LSN is read directly)
   */
  public static Result recover(FileSystem fs, Path logDir, Replay replay, boolean anyTablets, LogConfig config,
      LogSeals seals) throws IOException {
    List<Long> segments = SegmentFiles.list(fs, logDir);
    seal(fs, logDir, segments, seals);
    replay.scanTo(null);
    LOG.info("{}", replay.report());
    long[] tail = anyTablets ? new long[] {0, 0} : lastLsnAndTimestamp(fs, logDir, segments, config);
    long maxLsn = Math.max(replay.maxLsn(), tail[0]);
    long maxTs = Math.max(replay.maxTimestamp(), tail[1]);
    long nextSegment = segments.isEmpty() ? 1 : segments.get(segments.size() - 1) + 1;
    return new Result(replay, maxLsn + 1, maxTs, nextSegment);
  }

  /** LSN and largest timestamp of the newest segment holding a record: where a log with no tablets continues. */
  private static long[] lastLsnAndTimestamp(FileSystem fs, Path logDir, List<Long> segments, LogConfig config)
      throws IOException {
    long newest = newestWithRecord(fs, logDir, segments, config);
    if (newest < 0) {
      return new long[] {0, 0};
    }
    long lsn = 0;
    long ts = 0;
    try (SegmentScanner s = SegmentScanner.open(fs, logDir, newest, 0, config.maxFrameBytes(), d -> { })) {
      AppendedRecord r;
      while ((r = s.next()) != null) {
        lsn = Math.max(lsn, r.record().lsn());
        ts = Math.max(ts, r.record().timestamp());
      }
    }
    return new long[] {lsn, ts};
  }

  /**
   * The newest of {@code segments} (ascending) that holds a valid record, or -1 if none does: a
   * restart continues the log's LSNs from it, so the log's garbage collection keeps it.
   */
  static long newestWithRecord(FileSystem fs, Path logDir, List<Long> segments, LogConfig config) throws IOException {
    for (int i = segments.size() - 1; i >= 0; i--) {
      try (SegmentScanner s = SegmentScanner.open(fs, logDir, segments.get(i), 0, config.maxFrameBytes(), d -> { })) {
        if (s.next() != null) {
          return segments.get(i);
        }
      }
    }
    return -1;
  }
}
