package org.logbase.recovery;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogConfig;
import org.logbase.log.LogFileSystems;
import org.logbase.log.SegmentFiles;
import org.logbase.log.SegmentScanner;
import org.logbase.tablet.TabletDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's recovery on start: fences its log, rebuilds the tablets it is given ({@link Replay}),
 * and finds where the log continues (next LSN and segment). Tablets opened later are rebuilt by a
 * {@link Replay} of their own, which the storage engine joins to the live path.
 */
public final class LogRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);
  private static final Duration FENCE_TIMEOUT = Duration.ofSeconds(60);

  /** The rebuilt state a server starts serving from, and where its log continues. */
  public record Result(Replay replay, long nextLsn, long maxTimestamp, long nextSegment) {}

  private LogRecovery() {}

  /**
   * Recovers a server's log on start: fences it, rebuilds the given tablets to the end of the log,
   * and finds where the log continues.
   *
   * @param useCheckpoints false forces a full replay (benchmarks compare the two)
   */
  public static Result recover(
      FileSystem fs, Path logDir, CheckpointStore checkpoints, List<TabletDescriptor> tablets, LogConfig config,
      boolean useCheckpoints) throws IOException {
    List<Long> segments = SegmentFiles.list(fs, logDir);
    for (long s : segments) {
      // A previous incarnation of this server may still hold the last segment open.
      LogFileSystems.fence(fs, SegmentFiles.path(logDir, s), FENCE_TIMEOUT);
    }
    int removed = checkpoints.removeTemporaryFiles();
    if (removed > 0) {
      LOG.info("removed {} temporary checkpoint files left by a crash", removed);
    }
    Replay r = Replay.fromCheckpoints(fs, logDir, checkpoints, tablets, config, useCheckpoints);
    r.scanTo(null);
    LOG.info("{}", r.report());
    long[] tail = tablets.isEmpty() ? lastLsnAndTimestamp(fs, logDir, segments, config) : new long[] {0, 0};
    long maxLsn = Math.max(r.maxLsn(), tail[0]);
    long maxTs = Math.max(r.maxTimestamp(), tail[1]);
    long nextSegment = segments.isEmpty() ? 1 : segments.get(segments.size() - 1) + 1;
    return new Result(r, maxLsn + 1, maxTs, nextSegment);
  }

  /** LSN and largest timestamp of the newest segment holding a record: where a log with no tablets continues. */
  private static long[] lastLsnAndTimestamp(FileSystem fs, Path logDir, List<Long> segments, LogConfig config)
      throws IOException {
    for (int i = segments.size() - 1; i >= 0; i--) {
      long lsn = 0;
      long ts = 0;
      try (SegmentScanner s = SegmentScanner.open(fs, logDir, segments.get(i), 0, config.maxFrameBytes(), d -> { })) {
        AppendedRecord r;
        while ((r = s.next()) != null) {
          lsn = Math.max(lsn, r.record().lsn());
          ts = Math.max(ts, r.record().timestamp());
        }
      }
      if (lsn > 0) {
        return new long[] {lsn, ts};
      }
    }
    return new long[] {0, 0};
  }
}
