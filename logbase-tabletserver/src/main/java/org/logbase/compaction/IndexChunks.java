package org.logbase.compaction;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.logbase.index.IndexCursor;
import org.logbase.log.LogPointer;

/**
 * The index entries a compaction rewrites, in entry order, handed out in chunks whose estimated heap
 * (the records' frame bytes, plus the key and {@link #ENTRY_OVERHEAD} bytes per version, once the
 * frames are read)
 * stays within a bound; a chunk holds at least one entry. The index is the only source of which versions
 * exist: the log is read at the pointers it gives, never scanned.
 */
final class IndexChunks {
  /** Heap of one version in a chunk beyond its frame's bytes and its key: the pointer, its place. */
  static final int ENTRY_OVERHEAD = 80;

  /** Where one version's record is, with what the index says of it. */
  @SuppressWarnings("ArrayRecordComponent") // the key is the index's fresh copy, never changed
  record Pointer(byte[] key, long timestamp, long pointer, int meta) {
    boolean isTombstone() {
      return LogPointer.isTombstone(meta);
    }

    int frameLength() {
      return LogPointer.frameLength(meta);
    }

    long cost() {
      return cost(key.length, meta);
    }

    /** The estimated heap of a version with a key of {@code keyLength} bytes and index meta {@code meta}. */
    static long cost(int keyLength, int meta) {
      return LogPointer.frameLength(meta) + keyLength + (long) ENTRY_OVERHEAD;
    }
  }

  private final IndexCursor cursor;
  private final LongPredicate skip;
  private final long maxBytes;
  /** The entry the last chunk had no room for; null if none. */
  private Pointer pending;
  private boolean done;

  /**
   * @param skip entries to pass over, by pointer (the tail after the watermark)
   * @param maxBytes the estimated heap a chunk may take
   */
  IndexChunks(IndexCursor cursor, LongPredicate skip, long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("a chunk's bound is at least 1 byte: " + maxBytes);
    }
    this.cursor = cursor;
    this.skip = skip;
    this.maxBytes = maxBytes;
  }

  /** The next chunk, in entry order; empty once every entry was handed out. */
  List<Pointer> next() {
    List<Pointer> chunk = new ArrayList<>();
    long bytes = 0;
    if (pending != null) {
      chunk.add(pending);
      bytes = pending.cost();
      pending = null;
    }
    while (!done) {
      if (!cursor.next()) {
        done = true;
        break;
      }
      if (skip.test(cursor.pointer())) {
        continue;
      }
      Pointer p = new Pointer(cursor.key(), cursor.timestamp(), cursor.pointer(), cursor.meta());
      if (!chunk.isEmpty() && bytes + p.cost() > maxBytes) {
        pending = p;
        break;
      }
      chunk.add(p);
      bytes += p.cost();
    }
    return chunk;
  }

  /** Whether a chunk follows the one {@link #next} returned last. */
  boolean hasMore() {
    return pending != null;
  }
}
