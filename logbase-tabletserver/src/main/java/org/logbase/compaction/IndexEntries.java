package org.logbase.compaction;

import java.io.IOException;
import java.util.List;
import java.util.NoSuchElementException;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.SortedEntry;

/**
 * The versions a column group's index names (all but the tail), with their records, in entry order:
 * the index layer of a compaction's merge. The index is taken in chunks ({@link IndexChunks}), and
 * a chunk's records are read from the log when the merge reaches it ({@link ChunkReader}: in log
 * order, packed in entry order) and decoded one by one as the merge takes them. Chunks are consecutive stretches of the index in entry order, so one
 * after the other they are in entry order too, and only one is in memory at a time. Read once,
 * forward: {@link #seek} is not supported.
 */
final class IndexEntries implements EntryIterator {
  private final IndexChunks chunks;
  private final ChunkReader reader;
  /** The chunk being read, kept until its records are in, so that a failed read can be tried again. */
  private List<IndexChunks.Pointer> pending = List.of();
  private ChunkRecords current;
  private int next;
  /** Entry {@code next} of the current chunk, decoded; null until asked for. */
  private SortedEntry decoded;
  private int chunksRead;

  IndexEntries(IndexChunks chunks, ChunkReader reader) {
    this.chunks = chunks;
    this.reader = reader;
  }

  @Override
  public boolean hasNext() throws IOException {
    while (current == null || next == current.size()) {
      current = null; // let the chunk done with go before the next one is read
      next = 0;
      if (pending.isEmpty()) {
        pending = chunks.next();
        if (pending.isEmpty()) {
          return false;
        }
      }
      current = reader.read(pending);
      pending = List.of();
      chunksRead++;
    }
    return true;
  }

  @Override
  public SortedEntry peek() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    if (decoded == null) {
      decoded = current.entry(next);
    }
    return decoded;
  }

  @Override
  public SortedEntry next() throws IOException {
    SortedEntry e = peek();
    next++;
    decoded = null;
    return e;
  }

  @Override
  public void seek(byte[] rowKey, long timestamp) {
    throw new UnsupportedOperationException("a compaction reads the index once, in order");
  }

  /** Chunks read so far. */
  int chunksRead() {
    return chunksRead;
  }

  @Override
  public void close() {
    current = null;
    decoded = null;
    pending = List.of();
  }
}
