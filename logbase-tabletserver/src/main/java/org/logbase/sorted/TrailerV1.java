package org.logbase.sorted;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The fixed-size footer of a format version 1 segment, at its very end: where the Bloom filter and
 * the block index are and their CRC32Cs, the segment's counts, timestamp range and byte totals, a
 * CRC32C of all that, then the tail every format has (version, magic).
 *
 * <pre>
 *   filterOffset:i64 filterLength:i32 filterCrc:u32
 *   indexOffset:i64 indexLength:i32 indexCrc:u32
 *   entryCount:i64 rowCount:i64 tombstoneCount:i64
 *   minTimestamp:i64 maxTimestamp:i64 rawBytes:i64 storedBytes:i64
 *   crc:u32 version:u32=1 magic:u32="LBSS"
 * </pre>
 */
record TrailerV1(
    long filterOffset,
    int filterLength,
    int filterCrc,
    long indexOffset,
    int indexLength,
    int indexCrc,
    long entryCount,
    long rowCount,
    long tombstoneCount,
    long minTimestamp,
    long maxTimestamp,
    long rawBytes,
    long storedBytes) {

  static final int BYTES = 2 * (8 + 4 + 4) + 7 * 8 + 4 + SortedFormats.TAIL_BYTES;
  private static final int CRC_OFFSET = BYTES - SortedFormats.TAIL_BYTES - 4;

  byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    b.putLong(filterOffset).putInt(filterLength).putInt(filterCrc);
    b.putLong(indexOffset).putInt(indexLength).putInt(indexCrc);
    b.putLong(entryCount).putLong(rowCount).putLong(tombstoneCount);
    b.putLong(minTimestamp).putLong(maxTimestamp).putLong(rawBytes).putLong(storedBytes);
    b.putInt(PositionedFile.crc32c(b.array(), 0, CRC_OFFSET));
    b.putInt(SegmentFormatV1.VERSION).putInt(SortedFormats.MAGIC);
    return b.array();
  }

  /**
   * Reads a footer whose tail the caller has checked.
   *
   * @throws IOException if its CRC does not match
   */
  static TrailerV1 decode(byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    if (b.getInt(CRC_OFFSET) != PositionedFile.crc32c(bytes, 0, CRC_OFFSET)) {
      throw new IOException("footer fails its CRC32C");
    }
    return new TrailerV1(b.getLong(), b.getInt(), b.getInt(), b.getLong(), b.getInt(), b.getInt(),
        b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
  }
}
