package org.logbase.bench.engine;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.log.LogConfig;
import org.logbase.log.SegmentFiles;

/**
 * The write baseline: one thread appending ready-made frames to HDFS with one hflush per batch and
 * nothing else (no queue, no futures, no index). Files are created the way the engine's log writer
 * creates its segments (same stream buffer, header, replication).
 *
 * <p>By default it writes one file that never rolls (with a block size that never fills within a
 * run): the physical limit of appending. With {@code roll} it rolls at the engine's segment size
 * exactly as the engine does (synchronous close, then create), which shows what rolling costs.
 *
 * <p>Batch sizes follow a fractional average exactly: with average 8.4 the batches are 8, 8, 9, 8,
 * 9, ... so that records per hflush match the engine's observed group-commit batch size.
 */
final class HflushBaseline implements Closeable {
  // The engine's LogWriter values (private there): stream buffer and block-size rounding.
  private static final int STREAM_BUFFER_BYTES = 256 << 10;
  private static final long BLOCK_ROUNDING = 1L << 20;
  /** Block size of the single file when not rolling: bigger than any run writes, so no block switch either. */
  private static final long NO_ROLL_BLOCK_BYTES = 4L << 30;

  private final FileSystem fs;
  private final Path dir;
  private final LogConfig config;
  private final byte[] frame;
  private final double recordsPerBatch;
  private final boolean roll;
  private FSDataOutputStream out;
  private long segment;
  private long batches;
  private long records;

  HflushBaseline(FileSystem fs, Path dir, LogConfig config, byte[] frame, double recordsPerBatch, boolean roll)
      throws IOException {
    if (recordsPerBatch < 1) {
      throw new IllegalArgumentException("batches must average at least one record: " + recordsPerBatch);
    }
    this.fs = fs;
    this.dir = dir;
    this.config = config;
    this.frame = frame;
    this.recordsPerBatch = recordsPerBatch;
    this.roll = roll;
    fs.mkdirs(dir);
    openNextSegment();
  }

  /** Writes the next batch and flushes it; returns its number of records. */
  int writeBatch() throws IOException {
    int n = (int) (Math.floor((batches + 1) * recordsPerBatch) - Math.floor(batches * recordsPerBatch));
    for (int i = 0; i < n; i++) {
      out.write(frame);
    }
    out.hflush();
    batches++;
    records += n;
    if (roll && out.getPos() >= config.segmentBytes()) {
      out.close();
      openNextSegment();
    }
    return n;
  }

  double recordsPerBatch() {
    return batches == 0 ? 0 : (double) records / batches;
  }

  private void openNextSegment() throws IOException {
    segment++;
    Path p = SegmentFiles.path(dir, segment);
    long blockSize = !roll ? NO_ROLL_BLOCK_BYTES : Math.max(fs.getDefaultBlockSize(p),
        (config.segmentBytes() + config.maxBatchBytes() + BLOCK_ROUNDING - 1) / BLOCK_ROUNDING * BLOCK_ROUNDING);
    out = fs.create(p, false, STREAM_BUFFER_BYTES, fs.getDefaultReplication(p), blockSize);
    out.write(SegmentFiles.header(segment));
    out.hflush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
