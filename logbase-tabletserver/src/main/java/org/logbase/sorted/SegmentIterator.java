package org.logbase.sorted;

import java.io.IOException;
import java.util.NoSuchElementException;
import org.logbase.common.Bytes;
import org.logbase.log.ColumnNames;

/**
 * Iterates a range of a format version 1 segment block by block: a block is read (and checked) when
 * the iteration reaches it, never before a seek or {@link #hasNext} needs it. The blocks come from
 * a {@link BlockSource}; when the iteration reaches the end of its range, or is closed, the source
 * lets go of what it holds (a scan's stream), and takes it up again if a seek moves back. Entries'
 * values are copies, or views of their blocks for a row scan ({@link BlockLoans}).
 */
final class SegmentIterator implements EntryIterator {
  private final BlockIndex index;
  private final BlockSource blocks;
  private final byte[] start;
  private final byte[] end;
  /** Blocks before this one hold only keys before {@link #end}: their entries need no check against it. */
  private final int endBlock;
  private final ColumnNames names = new ColumnNames();
  /** Values as views of their blocks ({@link DataBlock#view}) instead of copies. */
  private final boolean views;

  private int blockIndex;
  private DataBlock block;
  /** Next entry of {@link #block} to return. */
  private int pos;
  /** Where a seek asked to start in the block not read yet; null: at its first entry. */
  private byte[] seekKey;
  private long seekTs;
  private SortedEntry next;
  private boolean ended;

  /** An iterator whose entries' values are copies. */
  SegmentIterator(BlockIndex index, BlockSource blocks, byte[] startInclusive, byte[] endExclusive) {
    this(index, blocks, startInclusive, endExclusive, false);
  }

  /** @param views whether the entries' values are views of their blocks instead of copies */
  SegmentIterator(BlockIndex index, BlockSource blocks, byte[] startInclusive, byte[] endExclusive, boolean views) {
    this.index = index;
    this.blocks = blocks;
    this.views = views;
    this.start = startInclusive;
    this.end = endExclusive;
    this.endBlock = index.endBlock(end);
    if (start == null) {
      blockIndex = 0;
    } else {
      position(start, Long.MAX_VALUE);
    }
  }

  @Override
  public void seek(byte[] rowKey, long timestamp) {
    if (start != null && Bytes.compare(rowKey, start) < 0) {
      position(start, Long.MAX_VALUE);
    } else {
      position(rowKey, timestamp);
    }
  }

  private void position(byte[] key, long ts) {
    blockIndex = index.find(key, ts);
    leaveBlock();
    seekKey = key;
    seekTs = ts;
    next = null;
    ended = false;
  }

  @Override
  public boolean hasNext() throws IOException {
    while (next == null && !ended) {
      if (block == null) {
        if (blockIndex >= index.size()) {
          end();
          break;
        }
        DataBlock b = blocks.block(blockIndex);
        pos = seekKey == null ? 0 : b.seek(seekKey, seekTs);
        block = b;
        seekKey = null;
      }
      if (pos < block.size()) {
        SortedEntry e = views ? block.view(pos++, names) : block.entry(pos++, names);
        if (blockIndex >= endBlock && Bytes.compare(e.rowKey(), end) >= 0) {
          end();
        } else {
          next = e;
        }
      } else {
        leaveBlock();
        blockIndex++;
      }
    }
    return next != null;
  }

  /** The range is read to its end: nothing more to read, so the source may let go. */
  private void end() throws IOException {
    ended = true;
    leaveBlock();
    blocks.close();
  }

  /** Drops the current block, if any, to its source (which knows whether entries taken from it view it). */
  private void leaveBlock() {
    DataBlock b = block;
    block = null;
    if (b != null) {
      blocks.done(b);
    }
  }

  @Override
  public SortedEntry peek() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return next;
  }

  @Override
  public SortedEntry next() throws IOException {
    SortedEntry e = peek();
    next = null;
    return e;
  }

  @Override
  public void close() throws IOException {
    leaveBlock();
    blocks.close();
  }
}
