package org.logbase.sorted;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Checked positioned reads of one sorted segment file: a read past the end or a checksum that does
 * not match is a {@link SegmentDamageException} naming the file, the part and its offset.
 * Positioned reads ({@code readFully(position, ...)}) do not move a shared file pointer, so threads
 * may read at the same time.
 */
final class PositionedFile implements Closeable {
  private final Path path;
  private final FSDataInputStream in;
  private final long length;

  PositionedFile(Path path, FSDataInputStream in, long length) {
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

  /** {@code n} bytes at {@code offset}; {@code what} names the part in a damage report. */
  byte[] read(long offset, int n, String what) throws IOException {
    if (offset < 0 || n < 0 || offset + n > length) {
      throw damage(offset, what + " of " + n + " bytes lies outside the file of " + length
          + " bytes (truncated?)");
    }
    byte[] buf = new byte[n];
    try {
      in.readFully(offset, buf, 0, n);
    } catch (EOFException e) {
      throw damage(offset, what + " of " + n + " bytes is cut short (truncated?)", e);
    }
    return buf;
  }

  /** Reads a part and checks its CRC32C against the one recorded for it. */
  byte[] readChecked(long offset, int n, int crc, String what) throws IOException {
    byte[] buf = read(offset, n, what);
    if (crc32c(buf) != crc) {
      throw damage(offset, what + " of " + n + " bytes fails its CRC32C");
    }
    return buf;
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
