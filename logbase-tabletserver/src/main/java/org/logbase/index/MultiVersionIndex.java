package org.logbase.index;

/**
 * Multiversion index of one (tablet, column group).
 *
 * <p>Entries are ordered by row key (unsigned lexicographic) ascending, then by timestamp
 * DESCENDING, so the versions of one key are adjacent and the newest comes first. Each entry
 * carries a value made of a {@code long pointer} and an {@code int meta}, both opaque to the
 * index. All methods are safe to call concurrently.
 */
public interface MultiVersionIndex {

  /**
   * Inserts an entry, or replaces the value of the entry with the same key and timestamp
   * (idempotent, so recovery can replay the log). The caller must not modify {@code key}
   * afterwards; the index copies the bytes anyway.
   */
  void put(byte[] key, long timestamp, long pointer, int meta);

  /**
   * Returns the newest version of {@code key} whose timestamp is {@code <= maxTimestamp}, or
   * null if there is none. Performs one descent of the index.
   */
  IndexEntry floor(byte[] key, long maxTimestamp);

  /** Returns the versions of {@code key} whose timestamp is {@code <= maxTimestamp}, newest first. */
  IndexCursor versions(byte[] key, long maxTimestamp);

  /**
   * Returns all entries with {@code startInclusive <= key < endExclusive} (a null bound is
   * unbounded), key ascending, then timestamp descending.
   *
   * <p>The cursor is weakly consistent, like the iterators of
   * {@link java.util.concurrent.ConcurrentSkipListMap}: it never fails because of concurrent
   * puts, and it sees every entry that was present before it was created. Entries added while
   * it runs may or may not be seen.
   */
  IndexCursor range(byte[] startInclusive, byte[] endExclusive);

  /** Number of entries; may lag behind concurrent inserts but is exact when quiescent. */
  long size();
}
