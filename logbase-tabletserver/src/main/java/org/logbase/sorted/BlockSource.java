package org.logbase.sorted;

import java.io.Closeable;
import java.io.IOException;

/**
 * Where a {@link SegmentIterator} gets the data blocks of its segment, each checked before it is
 * returned: positioned reads through the block cache for point reads ({@link
 * SegmentReaderV1#block}), a stream of the scan's own for scans ({@link ScanBlocks}).
 */
interface BlockSource extends Closeable {

  /**
   * Block {@code i} of the segment's block index.
   *
   * @throws SegmentDamageException if it fails a check
   */
  DataBlock block(int i) throws IOException;

  /**
   * The iterator is done with {@code block}, which this source returned: it will not read it again.
   * A scan reuses its array: at once if the entries decoded from it hold copies, once its {@link
   * BlockLoans} are released if they view it.
   */
  default void done(DataBlock block) {}

  /** Releases what the source holds (a stream); a later {@link #block} may take it up again. */
  @Override
  default void close() throws IOException {}
}
