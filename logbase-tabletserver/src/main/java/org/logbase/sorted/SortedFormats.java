package org.logbase.sorted;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The sorted segment formats by version, and opening a file in whichever format wrote it. Every
 * format ends its files with {@code version:u32 magic:u32}, magic 0x4C425353 ("LBSS").
 */
public final class SortedFormats {
  public static final int MAGIC = 0x4C425353; // "LBSS"
  static final String MAGIC_HEX = "0x4C425353";
  /** The tail every format ends its files with: version, magic. */
  public static final int TAIL_BYTES = 8;
  /** Ends the name of a segment being written ({@link #temporary}). */
  static final String TEMPORARY_SUFFIX = ".tmp";

  private static final Map<Integer, SegmentFormat> FORMATS = Map.of(1, SegmentFormatV1.INSTANCE);

  private SortedFormats() {}

  /** The name of the segment with file id {@code id} in a tablet's directory. */
  public static String fileName(long id) {
    return String.format(Locale.ROOT, "sorted-%020d.lbs", id);
  }

  /**
   * Where a segment to be named {@code path} is written until it is complete and synced: every
   * format writes under this name and renames the file when it is finished, so a file with such a
   * name never was (a crash, or a writer fenced off while writing it) and nothing names it.
   */
  static Path temporary(Path path) {
    return path.suffix(TEMPORARY_SUFFIX);
  }

  /**
   * The name of the {@code n}th temporary sorted run of the compaction that writes segment {@code
   * id}: in a segment's format, read back by that compaction only and deleted when it ends. Nothing
   * names a run, so one a crash left behind is deleted by the tablet's next opener ({@link #isRun}).
   */
  public static String runName(long id, int n) {
    return String.format(Locale.ROOT, "run-%020d-%d.lbs", id, n);
  }

  /** Whether a file of a tablet's directory is a compaction's run ({@link #runName}), finished or not. */
  public static boolean isRun(String name) {
    return name.startsWith("run-") && (name.endsWith(".lbs") || name.endsWith(".lbs" + TEMPORARY_SUFFIX));
  }

  /** Whether a file of a tablet's directory is a segment ({@link #fileName}) whose writing never finished. */
  public static boolean isUnfinished(String name) {
    return name.startsWith("sorted-") && name.endsWith(".lbs" + TEMPORARY_SUFFIX);
  }

  /** The format new segments are written in. */
  public static SegmentFormat current() {
    return SegmentFormatV1.INSTANCE;
  }

  public static Optional<SegmentFormat> find(int version) {
    return Optional.ofNullable(FORMATS.get(version));
  }

  /**
   * The format of a version.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static SegmentFormat forVersion(int version) {
    return find(version).orElseThrow(() -> new IllegalArgumentException(
        "unknown sorted segment format version " + version + " (known: " + known() + ")"));
  }

  /**
   * Opens a sorted segment in the format its tail names.
   *
   * @param cache shares decoded blocks; {@link BlockCache#none()} for none
   * @throws SegmentDamageException if the file is too short, has no magic, names an unknown
   *     version or fails a check of its format
   */
  public static SortedSegmentReader open(FileSystem fs, Path path, BlockCache cache) throws IOException {
    return open(fs, path, cache, ReadAhead.none());
  }

  /**
   * The same, with scans that read ahead through {@code readAhead}.
   *
   * @param readAhead threads the scans may read their next blocks with; {@link ReadAhead#none()} for none
   */
  public static SortedSegmentReader open(FileSystem fs, Path path, BlockCache cache, ReadAhead readAhead)
      throws IOException {
    return open(fs, path, cache, readAhead, ScanFileSystem.of(fs));
  }

  /**
   * The same, with scans that open their streams through {@code scans} (the reader does not close it).
   *
   * @param fs where the file is read for gets and for its footer, index and filter
   */
  public static SortedSegmentReader open(FileSystem fs, Path path, BlockCache cache, ReadAhead readAhead,
      ScanFileSystem scans) throws IOException {
    return open(fs, path, cache, readAhead, scans, new BlockArrays(BlockArrays.READER_BYTES));
  }

  /**
   * The same, with scans that read their blocks into arrays of {@code arrays}, which a server's
   * readers share (a reader opened without keeps its own, of {@link BlockArrays#READER_BYTES}).
   */
  public static SortedSegmentReader open(FileSystem fs, Path path, BlockCache cache, ReadAhead readAhead,
      ScanFileSystem scans, BlockArrays arrays) throws IOException {
    FSDataInputStream in = fs.open(path);
    try {
      long length = fs.getFileStatus(path).getLen();
      PositionedFile file = new PositionedFile(scans, path, in, length);
      if (length < TAIL_BYTES) {
        throw file.damage(0, "a file of " + length + " bytes is no sorted segment (truncated?)");
      }
      ByteBuffer tail = ByteBuffer.wrap(file.read(length - TAIL_BYTES, TAIL_BYTES, "tail"));
      int version = tail.getInt();
      int magic = tail.getInt();
      if (magic != MAGIC) {
        throw file.damage(length - 4, String.format(
            "bad magic 0x%08X, expected %s: not a sorted segment, or truncated", magic, MAGIC_HEX));
      }
      Optional<SegmentFormat> format = find(version);
      if (format.isEmpty()) {
        throw file.damage(length - TAIL_BYTES,
            "unknown sorted segment format version " + version + " (known: " + known() + ")");
      }
      return format.get().open(scans, path, in, length, cache, readAhead, arrays);
    } catch (IOException | RuntimeException e) {
      try {
        in.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  private static String known() {
    return new TreeMap<>(FORMATS).keySet().toString();
  }
}
