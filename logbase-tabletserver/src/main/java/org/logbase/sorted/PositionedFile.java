package org.logbase.sorted;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Checked reads of one sorted segment file: a read past the end or a checksum that does not match
 * is a {@link SegmentDamageException} naming the file, the part and its offset. Positioned reads
 * ({@code readFully(position, ...)}) of the shared stream do not move a file pointer, so threads
 * may read at the same time; a scan reads through a stream of its own ({@link #openStream}).
 */
final class PositionedFile implements Closeable {
  private final ScanFileSystem scans;
  private final Path path;
  private final FSDataInputStream in;
  private final long length;

  PositionedFile(ScanFileSystem scans, Path path, FSDataInputStream in, long length) {
    this.scans = scans;
    this.path = path;
    this.in = in;
    this.length = length;
  }

  Path path() {
    return path;
  }

  long length() {
    return length;
  }

  /**
   * Another stream of the file, for one reader that reads it in order; the caller closes it. It may
   * skip the file system's checksums ({@link #streamsVerify}).
   */
  FSDataInputStream openStream() throws IOException {
    return scans.open(path);
  }

  /** Whether {@link #openStream}'s streams verify the file system's checksums; positioned reads always do. */
  boolean streamsVerify() {
    return scans.verifies();
  }

  /**
   * {@code n} bytes at {@code offset}; {@code what} names the part in a damage report (its {@code
   * toString} is called only then: a scan names every block it reads).
   */
  byte[] read(long offset, int n, Object what) throws IOException {
    byte[] buf = allocate(offset, n, what);
    try {
      in.readFully(offset, buf, 0, n);
    } catch (EOFException e) {
      throw cutShort(offset, n, what, e);
    }
    return buf;
  }

  /**
   * The same as {@link #read}, through {@code stream} (from {@link #openStream}): moves it to
   * {@code offset} unless it is there, and leaves it after the part, so that parts read in file
   * order are one sequential read.
   */
  byte[] read(FSDataInputStream stream, long offset, int n, Object what) throws IOException {
    return read(stream, offset, n, what, allocate(offset, n, what));
  }

  /** The same, into {@code buf[0, n)} ({@code buf} may be longer); returns {@code buf}. */
  byte[] read(FSDataInputStream stream, long offset, int n, Object what, byte[] buf) throws IOException {
    if (buf.length < n) {
      throw new IllegalArgumentException("an array of " + buf.length + " bytes cannot hold " + what + " of " + n);
    }
    checkBounds(offset, n, what);
    if (stream.getPos() != offset) {
      stream.seek(offset);
    }
    try {
      stream.readFully(buf, 0, n);
    } catch (EOFException e) {
      throw cutShort(offset, n, what, e);
    }
    return buf;
  }

  private byte[] allocate(long offset, int n, Object what) throws SegmentDamageException {
    checkBounds(offset, n, what);
    return new byte[n];
  }

  private void checkBounds(long offset, int n, Object what) throws SegmentDamageException {
    if (offset < 0 || n < 0 || offset + n > length) {
      throw damage(offset, what + " of " + n + " bytes lies outside the file of " + length
          + " bytes (truncated?)");
    }
  }

  private SegmentDamageException cutShort(long offset, int n, Object what, EOFException e) {
    return damage(offset, what + " of " + n + " bytes is cut short (truncated?)", e);
  }

  /** Reads a part and checks its CRC32C against the one recorded for it. */
  byte[] readChecked(long offset, int n, int crc, Object what) throws IOException {
    return checked(offset, read(offset, n, what), crc, what);
  }

  /** {@code part}, read at {@code offset}, if its CRC32C is the one recorded for it. */
  byte[] checked(long offset, byte[] part, int crc, Object what) throws SegmentDamageException {
    return checked(offset, part, part.length, crc, what);
  }

  /** The same for the part {@code part[0, n)}. */
  byte[] checked(long offset, byte[] part, int n, int crc, Object what) throws SegmentDamageException {
    if (crc32c(part, 0, n) != crc) {
      throw damage(offset, what + " of " + n + " bytes fails its CRC32C");
    }
    return part;
  }

  SegmentDamageException damage(long offset, String what) {
    return new SegmentDamageException(path, offset, what);
  }

  SegmentDamageException damage(long offset, String what, Throwable cause) {
    return new SegmentDamageException(path, offset, what, cause);
  }

  static int crc32c(byte[] b) {
    return crc32c(b, 0, b.length);
  }

  static int crc32c(byte[] b, int offset, int n) {
    CRC32C c = new CRC32C();
    c.update(b, offset, n);
    return (int) c.getValue();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
