package org.logbase.log;

import java.io.IOException;
import org.logbase.common.CorruptRecordException;
import org.logbase.files.FileRegistry;

/**
 * Positioned reads of single records, by pointer, from whichever data file the pointer names
 * (through the {@link FileRegistry}: this server's log, or files another server wrote).
 */
public final class RecordReader {
  private final FileRegistry files;

  public RecordReader(FileRegistry files) {
    this.files = files;
  }

  /**
   * Reads and checks the record at {@code pointer}.
   *
   * @throws CorruptRecordException if the bytes there fail their CRC or do not parse
   */
  public LogRecord read(long pointer, int frameLength) throws IOException {
    byte[] frame = readFrame(pointer, frameLength);
    return RecordCodec.decode(frame, 0, frameLength, new Where(pointer));
  }

  /** The raw frame bytes at {@code pointer}, unchecked. */
  public byte[] readFrame(long pointer, int frameLength) throws IOException {
    byte[] frame = new byte[frameLength];
    files.readFully(LogPointer.segment(pointer), LogPointer.offset(pointer), frame);
    return frame;
  }

  /**
   * Reads {@code buf.length} bytes of data file {@code file} from {@code offset}: several records at
   * once, for a reader that goes through a file in order (compaction); {@link #decode} checks each.
   */
  public void readSpan(long file, long offset, byte[] buf) throws IOException {
    files.readFully(file, offset, buf);
  }

  /**
   * Checks and decodes the frame of {@code frameLength} bytes at {@code offset} in {@code buf}, read
   * from {@code pointer} (named in the error if it fails).
   *
   * @throws CorruptRecordException if the bytes fail their CRC or do not parse
   */
  public LogRecord decode(byte[] buf, int offset, int frameLength, long pointer) {
    return RecordCodec.decode(buf, offset, frameLength, new Where(pointer));
  }

  /** Names a place in the log for an error message; the string is built only if one is needed. */
  private final class Where {
    private final long pointer;

    Where(long pointer) {
      this.pointer = pointer;
    }

    @Override
    public String toString() {
      long file = LogPointer.segment(pointer);
      String where = files.knows(file) ? file + " (" + pathOf(file) + ")" : Long.toString(file);
      return "file " + where + " offset " + LogPointer.offset(pointer);
    }

    private String pathOf(long file) {
      try {
        return files.path(file).toString();
      } catch (IOException e) {
        return "unknown path";
      }
    }
  }
}
