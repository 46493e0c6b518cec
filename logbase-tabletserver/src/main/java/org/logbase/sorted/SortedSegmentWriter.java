package org.logbase.sorted;

import java.io.Closeable;
import java.io.IOException;

/**
 * Writes one sorted segment from entries given in entry order ({@link SortedEntry#ORDER}), each
 * (row key, timestamp) once. Obtained from a {@link SegmentFormat}. The file is complete, and
 * durable ({@code hsync}, unless {@link SegmentOptions#sync} says not to), only when {@link #finish}
 * returned; {@link #close} before that abandons
 * it and deletes what was written. After an {@link IOException} from the file system the writer
 * takes nothing more: close it.
 */
public interface SortedSegmentWriter extends Closeable {

  /**
   * Adds the next entry.
   *
   * @throws IllegalArgumentException if it does not come after the previous entry in entry order;
   *     the writer is unchanged and takes further entries
   */
  void append(SortedEntry entry) throws IOException;

  /** Writes the last block, the filter, the index and the footer, syncs and closes the file. */
  SegmentStats finish() throws IOException;

  /** After {@link #finish}, nothing; before it, closes and deletes the incomplete file. */
  @Override
  void close() throws IOException;
}
