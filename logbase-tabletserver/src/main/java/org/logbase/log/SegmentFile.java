package org.logbase.log;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Closeables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment file being written: created with its header (flushed), appended to, flushed, closed.
 * It knows nothing of LSNs, batches or other segments ({@link SegmentedLog} does); compaction's
 * sorted segments will be written the same way.
 */
public final class SegmentFile implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentFile.class);
  private static final int STREAM_BUFFER_BYTES = 256 << 10;

  private final long number;
  private final Path path;
  private final FSDataOutputStream out;

  private SegmentFile(long number, Path path, FSDataOutputStream out) {
    this.number = number;
    this.path = path;
    this.out = out;
  }

  /**
   * Creates segment {@code number} in {@code dir} (it must not exist) and writes its header.
   *
   * @param blockSize the file system block size to ask for (HDFS: one block per segment)
   */
  public static SegmentFile create(FileSystem fs, Path dir, long number, long blockSize) throws IOException {
    Path p = SegmentFiles.path(dir, number);
    FSDataOutputStream s = fs.create(p, false, STREAM_BUFFER_BYTES, fs.getDefaultReplication(p),
        Math.max(fs.getDefaultBlockSize(p), blockSize));
    try {
      s.write(SegmentFiles.header(number));
      s.hflush();
    } catch (IOException e) {
      Closeables.closeAfter(s, e); // its close fails too, with the write's own exception
      throw e;
    }
    return new SegmentFile(number, p, s);
  }

  public long number() {
    return number;
  }

  public Path path() {
    return path;
  }

  /** Where the next byte goes: the file's length once flushed. */
  public long position() throws IOException {
    return out.getPos();
  }

  /** Appends a frame; returns its offset. Durable only after {@link #flush}. */
  public long append(byte[] frame) throws IOException {
    long at = out.getPos();
    out.write(frame);
    return at;
  }

  /** Makes everything appended durable: hflush (survives a process crash), or hsync (and a power loss). */
  public void flush(boolean sync) throws IOException {
    if (sync) {
      out.hsync();
    } else {
      out.hflush();
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  /** Closes a segment a write failed on; a failure to close is expected then, and only logged. */
  public void abandon() {
    try {
      out.close();
    } catch (IOException e) {
      LOG.warn("closing failed segment {} failed too (expected after a write error)", number, e);
    }
  }
}
