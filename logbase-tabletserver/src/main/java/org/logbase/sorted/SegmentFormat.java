package org.logbase.sorted;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One layout of sorted segments, named by its version number (as Lucene's codecs are). Every layout
 * ends its files with the same tail, {@code version:u32 magic:u32} ({@link SortedFormats}), so a
 * reader finds the layout of any file; {@link SortedFormats} knows the versions there are.
 */
public interface SegmentFormat {

  /** The number in the tail of every file of this layout. */
  int version();

  /** Creates {@code path} (it must not exist) and returns a writer for it. */
  SortedSegmentWriter create(FileSystem fs, Path path, SegmentIdentity identity, SegmentOptions options)
      throws IOException;

  /**
   * Opens a file whose tail names this version. The reader it returns owns {@code in} and closes it;
   * if this throws, the caller closes {@code in}.
   *
   * @param scans where scans open streams of their own
   * @param length the file's length
   * @param readAhead the threads its scans may read ahead with
   * @param arrays the arrays its scans read blocks into
   * @throws SegmentDamageException if the file fails a check
   */
  SortedSegmentReader open(ScanFileSystem scans, Path path, FSDataInputStream in, long length, BlockCache cache,
      ReadAhead readAhead, BlockArrays arrays) throws IOException;
}
