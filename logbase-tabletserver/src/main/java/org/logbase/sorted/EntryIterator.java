package org.logbase.sorted;

import java.io.Closeable;
import java.io.IOException;

/**
 * A cursor over entries in entry order ({@link SortedEntry#ORDER}), the one contract every layer of
 * a read implements (a sorted segment, an in-memory index, a merge of them: {@link
 * MergingIterator}). An iterator covers a key range fixed when it is created; {@link #seek} moves
 * within it, forward or backward.
 *
 * <p>A point lookup as of a timestamp is {@code seek(key, asOf)} followed by {@link #peek}: the entry
 * there, if it has the key, is the newest version at or below {@code asOf}.
 *
 * <p>Not thread-safe. An {@link IOException} (a {@link SegmentDamageException} for damaged data)
 * leaves the iterator where it was: calling again fails again, and a seek may move past the damage.
 */
public interface EntryIterator extends Closeable {

  /**
   * Moves to the first entry at or after {@code (rowKey, timestamp)} in entry order: the newest
   * version of {@code rowKey} at or below {@code timestamp}, else the entries that follow. A target
   * before the iterator's range moves to its start.
   */
  void seek(byte[] rowKey, long timestamp) throws IOException;

  /** Moves to the newest version of {@code rowKey}, or the first entry after it. */
  default void seek(byte[] rowKey) throws IOException {
    seek(rowKey, Long.MAX_VALUE);
  }

  boolean hasNext() throws IOException;

  /**
   * The next entry without moving past it.
   *
   * @throws java.util.NoSuchElementException if there is none
   */
  SortedEntry peek() throws IOException;

  /**
   * The next entry; moves past it.
   *
   * @throws java.util.NoSuchElementException if there is none
   */
  SortedEntry next() throws IOException;
}
