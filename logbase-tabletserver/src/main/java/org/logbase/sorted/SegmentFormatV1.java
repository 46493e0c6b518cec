package org.logbase.sorted;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Sorted segment format version 1 (docs/log-format.md, "Sorted segments"):
 *
 * <pre>
 *   segment = header block* filter index footer
 *   header  = magic:u32="LBSS" version:u32=1 fileId:i64 tableId:i32 tabletId:i32 columnGroupId:i32
 *             compression:u8 reserved:u8[3]=0 crc:u32
 * </pre>
 *
 * Blocks hold entries ({@link EntryCodec}), stored as {@link Compression} says; the filter is a
 * {@link BloomFilter}, the index a {@link BlockIndex}, the footer a {@link TrailerV1}.
 */
final class SegmentFormatV1 implements SegmentFormat {
  static final SegmentFormatV1 INSTANCE = new SegmentFormatV1();
  static final int VERSION = 1;
  static final int HEADER_BYTES = 4 + 4 + 8 + 4 + 4 + 4 + 4 + 4;
  private static final int HEADER_CRC_OFFSET = HEADER_BYTES - 4;

  private SegmentFormatV1() {}

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public SortedSegmentWriter create(FileSystem fs, Path path, SegmentIdentity identity,
      SegmentOptions options) throws IOException {
    return new SegmentWriterV1(fs, path, identity, options);
  }

  @Override
  public SortedSegmentReader open(ScanFileSystem scans, Path path, FSDataInputStream in, long length,
      BlockCache cache, ReadAhead readAhead, BlockArrays arrays) throws IOException {
    return SegmentReaderV1.open(new PositionedFile(scans, path, in, length), cache, readAhead, arrays);
  }

  static byte[] header(SegmentIdentity id, Compression compression) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
    b.putInt(SortedFormats.MAGIC).putInt(VERSION).putLong(id.fileId());
    b.putInt(id.tableId()).putInt(id.tabletId()).putInt(id.columnGroupId());
    b.put((byte) compression.code()).put(new byte[3]);
    b.putInt(PositionedFile.crc32c(b.array(), 0, HEADER_CRC_OFFSET));
    return b.array();
  }

  /** What a header says. */
  record Header(SegmentIdentity identity, Compression compression) {}

  /**
   * Reads a header.
   *
   * @throws IOException naming what is wrong
   */
  static Header readHeader(byte[] h) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(h);
    if (b.getInt(0) != SortedFormats.MAGIC) {
      throw new IOException("header has no sorted segment magic");
    }
    if (b.getInt(HEADER_CRC_OFFSET) != PositionedFile.crc32c(h, 0, HEADER_CRC_OFFSET)) {
      throw new IOException("header fails its CRC32C");
    }
    if (b.getInt(4) != VERSION) {
      throw new IOException("header says format version " + b.getInt(4) + ", the footer " + VERSION);
    }
    SegmentIdentity id = new SegmentIdentity(b.getLong(8), b.getInt(16), b.getInt(20), b.getInt(24));
    Compression compression = Compression.fromCode(b.get(28));
    if (compression == null) {
      throw new IOException("header names unknown compression " + b.get(28));
    }
    return new Header(id, compression);
  }
}
