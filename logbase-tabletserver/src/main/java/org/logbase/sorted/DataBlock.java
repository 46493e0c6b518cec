package org.logbase.sorted;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.logbase.common.Loan;
import org.logbase.index.EntryOrder;
import org.logbase.log.ColumnNames;
import org.logbase.log.RecordCodec;

/**
 * A data block of a sorted segment (format version 1) that passed its checks: checksum,
 * decompression, and a walk over its entries (each parses, entries strictly in entry order, the
 * count and last entry the block index names). Holds the raw bytes and where each entry starts, so
 * a lookup decodes only the keys of a binary search and the entry it finds; what a {@link
 * BlockCache} holds. The block's bytes are the first {@link #length} of its array. A block a scan
 * reads through its stream is read into an array that is reused ({@link BlockArrays}) once nothing
 * the scan returned points into it: at once if the scan decoded (copied) every entry it took, at
 * its {@link BlockLoans#release} if it handed out views ({@link #view}), which the block's {@link
 * #loan} then ends. Such a block is never cached. Every other block has an array of its own and is
 * immutable.
 */
public final class DataBlock {
  private static final int OVERHEAD_BYTES = 64;

  private final byte[] raw;
  /** The block's bytes are {@code raw[0, length)}; the array may be longer. */
  private final int length;
  private final int[] starts;
  /** Null: nobody reuses the array, and views of it never end. */
  private final Loan loan;

  private DataBlock(byte[] raw, int length, int[] starts, Loan loan) {
    this.raw = raw;
    this.length = length;
    this.starts = starts;
    this.loan = loan;
  }

  /**
   * Checks the structure of a decompressed block, {@code raw[0, length)}, against its index entry.
   *
   * @throws IOException naming what is wrong (the caller adds the file and offset)
   */
  static DataBlock parse(byte[] raw, int length, BlockInfo info) throws IOException {
    int[] starts = new int[info.entryCount()];
    ByteBuffer b = ByteBuffer.wrap(raw, 0, length);
    int n = 0;
    // The key and timestamp of the entry before, to check the order in the same pass.
    int keyFrom = 0;
    int keyTo = 0;
    long ts = 0;
    try {
      while (b.hasRemaining()) {
        if (n == starts.length) {
          throw new IOException("more entries than the " + starts.length + " the index says");
        }
        starts[n] = b.position();
        int from = EntryCodec.skipKey(b);
        int to = b.position();
        EntryCodec.skipAfterKey(b);
        long entryTs = b.getLong(to); // read once already by skipAfterKey: in the block
        if (n > 0 && EntryOrder.compare(raw, keyFrom, keyTo, ts, raw, from, to, entryTs) >= 0) {
          throw new IOException("entry " + n + " is out of order");
        }
        keyFrom = from;
        keyTo = to;
        ts = entryTs;
        n++;
      }
    } catch (IllegalStateException | BufferUnderflowException e) {
      throw new IOException("entry " + n + " does not parse", e);
    }
    if (n != starts.length || n == 0) {
      throw new IOException(n + " entries, the index says " + starts.length);
    }
    byte[] last = info.lastKey();
    if (EntryOrder.compare(raw, keyFrom, keyTo, ts, last, 0, last.length, info.lastTimestamp()) != 0) {
      throw new IOException("last entry differs from the block index");
    }
    return new DataBlock(raw, length, starts, null);
  }

  /** The same block, lent by a scan that will reuse its array once {@code loan} ends: its views end with it. */
  DataBlock lentUnder(Loan loan) {
    return new DataBlock(raw, length, starts, loan);
  }

  /** What views of this block are readable under (null: always). */
  Loan loan() {
    return loan;
  }

  public int size() {
    return starts.length;
  }

  /** The array the block's bytes begin; a scan that read the block into it may reuse it. */
  byte[] array() {
    return raw;
  }

  /** Bytes this block holds on the heap, as a cache weighs it. */
  public int weight() {
    return raw.length + 4 * starts.length + OVERHEAD_BYTES;
  }

  SortedEntry entry(int i) {
    return entry(i, null);
  }

  /** Entry {@code i}, its column names decoded through {@code names} (null: each anew). */
  SortedEntry entry(int i, ColumnNames names) {
    return EntryCodec.decode(ByteBuffer.wrap(raw, starts[i], length - starts[i]), names);
  }

  /** The same, its values views of this block ({@link org.logbase.log.LogRecord.Column#view}) under its {@link #loan}. */
  SortedEntry view(int i, ColumnNames names) {
    return EntryCodec.decodeViews(ByteBuffer.wrap(raw, starts[i], length - starts[i]), names, loan);
  }

  /** Index of the first entry at or after {@code (key, ts)}; {@link #size} if there is none. */
  int seek(byte[] key, long ts) {
    return Search.firstNotBefore(starts.length, i -> compareAt(i, key, ts) < 0);
  }

  /** Entry {@code i} compared with the position {@code (key, ts)} in entry order. */
  private int compareAt(int i, byte[] key, long ts) {
    return compare(starts[i], key, 0, key.length, ts);
  }

  /** The entry at {@code raw[start]} compared with the position {@code (key[from, to), ts)}. */
  private int compare(int start, byte[] key, int from, int to, long ts) {
    ByteBuffer b = ByteBuffer.wrap(raw, start, length - start);
    int keyLength = RecordCodec.getVarint(b);
    int keyFrom = b.position();
    int keyTo = keyFrom + keyLength;
    return EntryOrder.compare(raw, keyFrom, keyTo, b.getLong(keyTo), key, from, to, ts);
  }
}
