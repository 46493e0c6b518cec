package org.logbase.sorted;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The file system scans open their streams of sorted segments through ({@link ScanStreams}). On
 * HDFS it can be a second client of the same cluster that verifies none of HDFS's checksums, so the
 * DataNode sends none: every data block carries a CRC32C of its own, which every read checks
 * ({@link SegmentReaderV1#check}), and HDFS's checksum of every 512 bytes checks the same bytes a
 * second time (about a seventh of the scanning thread's CPU in a full scan; docs/benchmarks.md). A
 * block read so that fails its own check is read again with a positioned read that verifies HDFS's
 * checksums ({@link ScanBlocks}); that read may go to another replica, so the damaged one is
 * reported to the NameNode only when a verifying read meets it, or by the DataNode's block scanner.
 * Gets and the segment's other parts always read with HDFS's checksums. HBase reads its HFiles the
 * same way.
 */
public final class ScanFileSystem implements Closeable {
  private final FileSystem fs;
  /** False: {@link #fs} is a client of its own without checksums, which {@link #close} closes. */
  private final boolean verifies;

  private ScanFileSystem(FileSystem fs, boolean verifies) {
    this.fs = fs;
    this.verifies = verifies;
  }

  /** Scans open their streams through {@code fs} itself, which closes it; its checksums as it has them. */
  public static ScanFileSystem of(FileSystem fs) {
    return new ScanFileSystem(fs, true);
  }

  /**
   * On HDFS ({@code fs} a {@link DistributedFileSystem}, or a {@link ReadsPassThrough} wrapper of
   * one), a client of its own that verifies no HDFS checksums, closed by {@link #close}; on any
   * other file system, {@link #of}{@code (fs)}.
   */
  public static ScanFileSystem withoutHdfsChecksums(FileSystem fs) throws IOException {
    FileSystem read = fs;
    while (read instanceof ReadsPassThrough && read instanceof FilterFileSystem wrapper) {
      read = wrapper.getRawFileSystem();
    }
    if (!(read instanceof DistributedFileSystem)) {
      return of(fs);
    }
    FileSystem own = FileSystem.newInstance(read.getUri(), read.getConf());
    own.setVerifyChecksum(false);
    return new ScanFileSystem(own, false);
  }

  /**
   * A wrapper of a file system ({@link FilterFileSystem}) that reads as the file system it wraps
   * does (it changes only writes, say), so scans may read through a client of that one.
   */
  public interface ReadsPassThrough {}

  /** A new stream of {@code path}; the caller closes it. */
  FSDataInputStream open(Path path) throws IOException {
    return fs.open(path);
  }

  /** Whether the streams verify the file system's checksums (false: a failed check is read again with them). */
  public boolean verifies() {
    return verifies;
  }

  /** Closes the client of its own, if it has one. */
  @Override
  public void close() throws IOException {
    if (!verifies) {
      fs.close();
    }
  }
}
