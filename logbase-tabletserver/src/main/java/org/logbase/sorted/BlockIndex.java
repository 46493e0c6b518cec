package org.logbase.sorted;

import static org.logbase.log.RecordCodec.getBytes;
import static org.logbase.log.RecordCodec.getVarint;
import static org.logbase.log.RecordCodec.putBytes;
import static org.logbase.log.RecordCodec.putVarint;
import static org.logbase.log.RecordCodec.varintSize;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.logbase.index.EntryOrder;

/**
 * The block index of a format version 1 segment: the smallest row key, then per data block the last
 * entry's key and timestamp, where the block is, its lengths, entry count, compression and CRC32C.
 * Finding the block of a position is a binary search over the last entries, so a lookup reads one
 * block.
 *
 * <pre>
 *   index = minKeyLength:varint minKey blockCount:varint block*
 *   block = lastKeyLength:varint lastKey lastTimestamp:i64 offset:i64
 *           storedLength:i32 rawLength:i32 entryCount:i32 compression:u8 crc:u32
 * </pre>
 */
final class BlockIndex {
  private static final int FIXED_BLOCK_BYTES = 8 + 8 + 4 + 4 + 4 + 1 + 4;

  private final byte[] minKey;
  private final List<BlockInfo> blocks;

  private final int maxStoredLength;

  BlockIndex(byte[] minKey, List<BlockInfo> blocks) {
    this.minKey = minKey;
    this.blocks = List.copyOf(blocks);
    this.maxStoredLength = blocks.stream().mapToInt(BlockInfo::storedLength).max().orElse(0);
  }

  /** The stored length of the longest block (0 if there is none): an array this long holds any of them. */
  int maxStoredLength() {
    return maxStoredLength;
  }

  /** Null if the segment is empty. */
  byte[] minKey() {
    return blocks.isEmpty() ? null : minKey;
  }

  /** Null if the segment is empty. */
  byte[] maxKey() {
    return blocks.isEmpty() ? null : blocks.get(blocks.size() - 1).lastKey();
  }

  List<BlockInfo> blocks() {
    return blocks;
  }

  int size() {
    return blocks.size();
  }

  BlockInfo get(int i) {
    return blocks.get(i);
  }

  /** The first block whose last entry is at or after {@code (key, ts)}; {@link #size} if none. */
  int find(byte[] key, long ts) {
    return Search.firstNotBefore(blocks.size(), i -> {
      BlockInfo b = blocks.get(i);
      return EntryOrder.compare(b.lastKey(), b.lastTimestamp(), key, ts) < 0;
    });
  }

  /**
   * The block that holds the first entry at or after {@code endExclusive}'s first version ({@link
   * #size} if none, or if {@code endExclusive} is null): the blocks before it hold only keys before
   * {@code endExclusive}, the blocks after it only keys at or after it.
   */
  int endBlock(byte[] endExclusive) {
    return endExclusive == null ? blocks.size() : find(endExclusive, EntryOrder.FIRST_TIMESTAMP);
  }

  byte[] encode() {
    byte[] min = minKey == null ? new byte[0] : minKey;
    int size = varintSize(min.length) + min.length + varintSize(blocks.size());
    for (BlockInfo b : blocks) {
      size += varintSize(b.lastKey().length) + b.lastKey().length + FIXED_BLOCK_BYTES;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    putBytes(out, min);
    putVarint(out, blocks.size());
    for (BlockInfo b : blocks) {
      putBytes(out, b.lastKey());
      out.putLong(b.lastTimestamp()).putLong(b.offset());
      out.putInt(b.storedLength()).putInt(b.rawLength()).putInt(b.entryCount());
      out.put((byte) b.compression().code()).putInt(b.crc());
    }
    return out.array();
  }

  /**
   * Reads an index whose CRC the caller has checked, and checks that its blocks tile the data
   * section {@code [dataStart, dataEnd)} in order and that their last entries increase.
   *
   * @throws IOException naming what is wrong
   */
  static BlockIndex decode(byte[] bytes, long dataStart, long dataEnd) throws IOException {
    List<BlockInfo> blocks = new ArrayList<>();
    byte[] minKey;
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      minKey = getBytes(in);
      int count = getVarint(in);
      long next = dataStart;
      for (int i = 0; i < count; i++) {
        BlockInfo b = new BlockInfo(getBytes(in), in.getLong(), in.getLong(), in.getInt(),
            in.getInt(), in.getInt(), Compression.fromCode(in.get()), in.getInt());
        if (b.offset() != next || b.storedLength() < 0 || b.rawLength() < 1 || b.entryCount() < 1
            || b.compression() == null) {
          throw new IOException("block index entry " + i + " is inconsistent");
        }
        BlockInfo previous = i == 0 ? null : blocks.get(i - 1);
        if (previous != null && EntryOrder.compare(previous.lastKey(), previous.lastTimestamp(),
            b.lastKey(), b.lastTimestamp()) >= 0) {
          throw new IOException("block index entry " + i + " is out of order");
        }
        blocks.add(b);
        next += b.storedLength();
      }
      if (next != dataEnd || in.hasRemaining()) {
        throw new IOException("block index does not cover the data blocks");
      }
    } catch (IllegalStateException | BufferUnderflowException e) {
      throw new IOException("block index does not parse", e);
    }
    return new BlockIndex(minKey, blocks);
  }
}
