package org.logbase.sorted;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * A sorted segment, or a part of one, failed a check: checksum, magic, format version, length,
 * structure or decompression. Names the file and the offset of the damaged part. Nothing the damaged
 * part holds is returned; other blocks of the file may still be readable.
 */
public class SegmentDamageException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  public SegmentDamageException(Path file, long offset, String what) {
    this(file, offset, what, null);
  }

  public SegmentDamageException(Path file, long offset, String what, Throwable cause) {
    super("damaged sorted segment " + file + " at offset " + offset + ": " + what, cause);
    this.file = file;
    this.offset = offset;
  }

  public Path file() {
    return file;
  }

  /** Where the damaged part starts in the file. */
  public long offset() {
    return offset;
  }
}
