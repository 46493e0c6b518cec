package org.logbase.log;

import org.logbase.common.Config;

/**
 * Settings of the log repository.
 *
 * @param segmentBytes a segment is sealed and a new one started once it reaches this size
 * @param maxBatchBytes group commit stops adding requests to a batch beyond this many bytes
 * @param maxFrameBytes largest record frame accepted (key, columns and headers together)
 */
public record LogConfig(long segmentBytes, long maxBatchBytes, int maxFrameBytes) {
  public static final String SEGMENT_BYTES = "log.segment.bytes";
  public static final String MAX_BATCH_BYTES = "log.batch.max.bytes";
  public static final String MAX_RECORD_BYTES = "log.record.max.bytes";

  public static final LogConfig DEFAULT = new LogConfig(64L << 20, 4L << 20, 32 << 20);

  public LogConfig {
    if (segmentBytes < 4096 || segmentBytes > (2L << 30)) {
      throw new IllegalArgumentException(SEGMENT_BYTES + " must be between 4k and 2g: " + segmentBytes);
    }
    if (maxBatchBytes < 1) {
      throw new IllegalArgumentException(MAX_BATCH_BYTES + " must be positive: " + maxBatchBytes);
    }
    if (maxFrameBytes < RecordCodec.MIN_FRAME_BYTES || maxFrameBytes > LogPointer.MAX_FRAME_BYTES) {
      throw new IllegalArgumentException(
          MAX_RECORD_BYTES + " must be between " + RecordCodec.MIN_FRAME_BYTES + " and "
              + LogPointer.MAX_FRAME_BYTES + ": " + maxFrameBytes);
    }
  }

  public static LogConfig from(Config c) {
    return new LogConfig(
        c.getBytes(SEGMENT_BYTES, DEFAULT.segmentBytes),
        c.getBytes(MAX_BATCH_BYTES, DEFAULT.maxBatchBytes),
        Math.toIntExact(c.getBytes(MAX_RECORD_BYTES, DEFAULT.maxFrameBytes)));
  }

  public LogConfig withSegmentBytes(long bytes) {
    return new LogConfig(bytes, maxBatchBytes, maxFrameBytes);
  }
}
