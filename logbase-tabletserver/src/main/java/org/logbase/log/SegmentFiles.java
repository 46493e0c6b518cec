package org.logbase.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.files.FileRegistry;
import org.logbase.files.SharedPaths;

/**
 * Names, lists and heads segment files. A segment is {@code seg-<20-digit file id>.log} in the log
 * directory and starts with a 20-byte header: magic "LBSG", format version, file id, and a CRC32C of
 * those 16 bytes. File ids are unique in the cluster ({@link org.logbase.files.FileIds}) and increase
 * within one log, so a log's segments sorted by id are in log order.
 */
public final class SegmentFiles {
  public static final int HEADER_BYTES = 20;
  static final int MAGIC = 0x4C425347; // "LBSG"
  static final int VERSION = 1;
  private static final Pattern NAME = Pattern.compile("seg-(\\d{20})\\.log");
  /** An empty file in the log directory: some of its segments were deleted as no tablet needed them. */
  private static final String COLLECTED = "COLLECTED";

  private SegmentFiles() {}

  public static Path path(Path logDir, long segment) {
    return new Path(logDir, String.format("seg-%020d.log", segment));
  }

  /** The segment number of a file name, or -1 if it is not a segment. */
  public static long number(String fileName) {
    Matcher m = NAME.matcher(fileName);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** Segment numbers in the directory, ascending; empty if the directory does not exist. */
  public static List<Long> list(FileSystem fs, Path logDir) throws IOException {
    List<Long> out = new ArrayList<>();
    for (FileStatus f : SharedPaths.list(fs, logDir)) {
      long n = number(f.getPath().getName());
      if (n >= 0) {
        out.add(n);
      }
    }
    out.sort(null);
    return out;
  }

  /** Makes every segment of the log in {@code logDir} known to the registry; returns their ids. */
  public static List<Long> register(FileRegistry files, FileSystem fs, Path logDir) throws IOException {
    List<Long> ids = list(fs, logDir);
    for (long id : ids) {
      files.register(id, path(logDir, id));
    }
    return ids;
  }

  /**
   * Marks the log as collected, before its first segment is deleted: from then on the log no longer
   * holds every record ever written, and a replay from its start is not a tablet's whole history.
   */
  public static void markCollected(FileSystem fs, Path logDir) throws IOException {
    Path marker = new Path(logDir, COLLECTED);
    if (!fs.exists(marker)) {
      fs.create(marker, true).close();
    }
  }

  /** Whether some segments of the log were deleted ({@link #markCollected}). */
  public static boolean isCollected(FileSystem fs, Path logDir) throws IOException {
    return fs.exists(new Path(logDir, COLLECTED));
  }

  public static byte[] header(long segment) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
    b.putInt(MAGIC).putInt(VERSION).putLong(segment);
    CRC32C c = new CRC32C();
    c.update(b.array(), 0, 16);
    b.putInt((int) c.getValue());
    return b.array();
  }

  /** Checks a header read from a file; returns null if valid, else what is wrong. */
  public static String checkHeader(byte[] h, long expectedSegment) {
    ByteBuffer b = ByteBuffer.wrap(h);
    CRC32C c = new CRC32C();
    c.update(h, 0, 16);
    if (b.getInt(0) != MAGIC) {
      return "not a LogBase segment (bad magic)";
    }
    if (b.getInt(16) != (int) c.getValue()) {
      return "segment header CRC mismatch";
    }
    if (b.getInt(4) != VERSION) {
      return "unsupported segment format version " + b.getInt(4);
    }
    if (b.getLong(8) != expectedSegment) {
      return "header names segment " + b.getLong(8) + " but the file is segment " + expectedSegment;
    }
    return null;
  }
}
