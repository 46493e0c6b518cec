package org.logbase.sorted;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Reads one sorted segment, opened by {@link SortedFormats#open}. The header, footer, block index and
 * Bloom filter were checked when it opened; each data block is checked when it is read (or was when
 * it entered the block cache). Safe for concurrent use by several threads (positioned reads); its
 * iterators are not.
 *
 * <p>Point reads ({@link #get}, {@link #row}) read a block with a positioned read and keep it in the
 * block cache. Scans ({@link #scan}) read their blocks in file order through a stream of their own
 * after the first few, and take blocks the cache holds but add none. A scan gives its stream back
 * to the reader (which keeps a few idle ones, without their DataNode connections, for the next
 * scans) when it is read to the end of its range or closed, whichever comes first, so a caller
 * that may stop early closes it. Closing the reader closes every stream it holds.
 */
public interface SortedSegmentReader extends Closeable {

  Path path();

  SegmentStats stats();

  /** The block index, in file order. */
  List<BlockInfo> blocks();

  /**
   * Whether the streams its scans read through verify the file system's checksums; false where
   * they skip them ({@link ScanFileSystem}) and each block's own CRC32C is the check.
   */
  boolean scansVerifyFileSystemChecksums();

  /** False if the segment holds no version of {@code rowKey}; true if it may (Bloom filter). */
  boolean mightContain(byte[] rowKey);

  /**
   * The newest version of {@code rowKey} at or below {@code asOfTimestamp}, a tombstone included
   * (the row is deleted as of then), or null if the segment has none. Reads at most one data block.
   *
   * @throws SegmentDamageException if that block is damaged
   */
  SortedEntry get(byte[] rowKey, long asOfTimestamp) throws IOException;

  /**
   * The versions of {@code rowKey} at or below {@code asOfTimestamp}, newest first, tombstones
   * included: a point read, through the block cache. Moving it with {@link EntryIterator#seek}
   * stays within the row.
   */
  EntryIterator row(byte[] rowKey, long asOfTimestamp);

  /**
   * The entries of the rows in [start, end) in entry order; null bounds are open. A sequential read
   * that does not fill the block cache (see above) and reads ahead if the reader was opened with
   * read-ahead; close it unless it is read to its end.
   */
  default EntryIterator scan(byte[] startInclusive, byte[] endExclusive) {
    return scan(startInclusive, endExclusive, true);
  }

  /**
   * The same; {@code readAhead} false for a reader that would not keep up with a read-ahead thread
   * anyway (a compaction, held to its throttle), so that it takes none from the scans that would.
   */
  EntryIterator scan(byte[] startInclusive, byte[] endExclusive, boolean readAhead);

  /**
   * The same as {@link #scan(byte[], byte[])}, with each entry's values views of the block that
   * holds them ({@link org.logbase.log.LogRecord.Column#view}) instead of copies: readable until
   * {@code loans} is released, which the blocks the scan moved past wait for before they are read
   * into again (a row scan, {@link BlockLoans}).
   */
  EntryIterator scan(byte[] startInclusive, byte[] endExclusive, BlockLoans loans);

  /** Every entry of the segment in entry order, as {@link #scan(byte[], byte[])} reads them. */
  default EntryIterator scan() {
    return scan(null, null);
  }
}
