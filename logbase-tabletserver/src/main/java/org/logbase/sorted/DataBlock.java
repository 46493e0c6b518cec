package org.logbase.sorted;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.logbase.index.EntryOrder;
import org.logbase.log.RecordCodec;

/**
 * A data block of a sorted segment (format version 1) that passed its checks: checksum,
 * decompression, and a walk over its entries (each parses, entries strictly in entry order, the
 * count and last entry the block index names). Holds the raw bytes and where each entry starts, so
 * a lookup decodes only the keys of a binary search and the entry it finds. Immutable; what a
 * {@link BlockCache} holds.
 */
public final class DataBlock {
  private static final int OVERHEAD_BYTES = 64;

  private final byte[] raw;
  private final int[] starts;

  private DataBlock(byte[] raw, int[] starts) {
    this.raw = raw;
    this.starts = starts;
  }

  /**
   * Checks the structure of a decompressed block against its index entry.
   *
   * @throws IOException naming what is wrong (the caller adds the file and offset)
   */
  static DataBlock parse(byte[] raw, BlockInfo info) throws IOException {
    int[] starts = new int[info.entryCount()];
    ByteBuffer b = ByteBuffer.wrap(raw);
    int n = 0;
    try {
      while (b.hasRemaining()) {
        if (n == starts.length) {
          throw new IOException("more entries than the " + starts.length + " the index says");
        }
        starts[n] = b.position();
        EntryCodec.skip(b);
        if (n > 0 && compareEntries(raw, starts[n - 1], starts[n]) >= 0) {
          throw new IOException("entry " + n + " is out of order");
        }
        n++;
      }
    } catch (IllegalStateException | BufferUnderflowException e) {
      throw new IOException("entry " + n + " does not parse", e);
    }
    if (n != starts.length || n == 0) {
      throw new IOException(n + " entries, the index says " + starts.length);
    }
    DataBlock block = new DataBlock(raw, starts);
    if (block.compareAt(n - 1, info.lastKey(), info.lastTimestamp()) != 0) {
      throw new IOException("last entry differs from the block index");
    }
    return block;
  }

  public int size() {
    return starts.length;
  }

  /** Bytes this block holds on the heap, as a cache weighs it. */
  public int weight() {
    return raw.length + 4 * starts.length + OVERHEAD_BYTES;
  }

  SortedEntry entry(int i) {
    return EntryCodec.decode(ByteBuffer.wrap(raw, starts[i], raw.length - starts[i]));
  }

  /** Index of the first entry at or after {@code (key, ts)}; {@link #size} if there is none. */
  int seek(byte[] key, long ts) {
    return Search.firstNotBefore(starts.length, i -> compareAt(i, key, ts) < 0);
  }

  /** Entry {@code i} compared with the position {@code (key, ts)} in entry order. */
  private int compareAt(int i, byte[] key, long ts) {
    return compare(raw, starts[i], key, 0, key.length, ts);
  }

  private static int compareEntries(byte[] raw, int first, int second) {
    int to = keyTo(raw, second);
    return compare(raw, first, raw, keyFrom(raw, second), to, ByteBuffer.wrap(raw).getLong(to));
  }

  /** The entry at {@code raw[start]} compared with the position {@code (key[from, to), ts)}. */
  private static int compare(byte[] raw, int start, byte[] key, int from, int to, long ts) {
    int keyTo = keyTo(raw, start);
    long entryTs = ByteBuffer.wrap(raw).getLong(keyTo);
    return EntryOrder.compare(raw, keyFrom(raw, start), keyTo, entryTs, key, from, to, ts);
  }

  private static int keyFrom(byte[] raw, int start) {
    ByteBuffer b = ByteBuffer.wrap(raw, start, raw.length - start);
    RecordCodec.getVarint(b);
    return b.position();
  }

  /** End of the key of the entry at {@code start}; its timestamp follows. */
  private static int keyTo(byte[] raw, int start) {
    ByteBuffer b = ByteBuffer.wrap(raw, start, raw.length - start);
    int length = RecordCodec.getVarint(b);
    return b.position() + length;
  }
}
