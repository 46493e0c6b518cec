package org.logbase.sorted;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Bytes;
import org.logbase.common.Failures;

/**
 * Writes a format version 1 segment: the header, then each data block as it fills (compressed, or
 * raw if compressing did not shrink it; CRC32C of the stored bytes in the index), and at {@link
 * #finish} the Bloom filter, the block index and the footer. The file is written under a temporary
 * name ({@link SortedFormats#temporary}) and renamed to its own once synced, so that a crash while
 * it is written leaves a file the tablet's next opener knows to delete.
 */
final class SegmentWriterV1 implements SortedSegmentWriter {
  /** A compressed block is kept only if it is at least 1/8 smaller than the raw one. */
  static final int MIN_SAVING_DIVISOR = 8;
  private final FileSystem fs;
  private final Path path;
  /** Where the segment is written until {@link #finish} renames it to {@link #path}. */
  private final Path temporary;
  private final SegmentIdentity identity;
  private final SegmentOptions options;
  private final FSDataOutputStream out;
  private final ByteArrayOutputStream block = new ByteArrayOutputStream();
  private final List<BlockInfo> blocks = new ArrayList<>();
  private final BloomFilter.Builder filter = new BloomFilter.Builder();
  private long position;
  private boolean finished;

  private byte[] minKey;
  private SortedEntry last;
  private int blockEntries;
  private long entries;
  private long rows;
  private long tombstones;
  private long minTs = Long.MAX_VALUE;
  private long maxTs = Long.MIN_VALUE;
  private long rawBytes;
  private long storedBytes;

  SegmentWriterV1(FileSystem fs, Path path, SegmentIdentity identity, SegmentOptions options)
      throws IOException {
    this.fs = fs;
    this.path = path;
    this.temporary = SortedFormats.temporary(path);
    this.identity = identity;
    this.options = options;
    if (fs.exists(path)) {
      throw new FileAlreadyExistsException("sorted segment " + path + " exists already");
    }
    this.out = fs.create(temporary, false);
    byte[] header = SegmentFormatV1.header(identity, options.compression());
    try {
      out.write(header);
    } catch (IOException e) {
      abandon(e);
    }
    position = header.length;
  }

  @Override
  public void append(SortedEntry e) throws IOException {
    if (finished) {
      throw new IllegalStateException("segment " + path + " is finished");
    }
    if (last != null && SortedEntry.ORDER.compare(last, e) >= 0) {
      throw new IllegalArgumentException("sorted segment " + path + ": entry " + e + " does not come after "
          + last + " (order: row key ascending, timestamp descending, each version once)");
    }
    byte[] encoded = EntryCodec.encode(e);
    if (blockEntries > 0 && block.size() + encoded.length > options.blockBytes()) {
      flushBlock();
    }
    block.write(encoded);
    blockEntries++;
    if (last == null || Bytes.compare(last.rowKey(), e.rowKey()) != 0) {
      rows++;
      filter.add(e.rowKey());
    }
    if (minKey == null) {
      minKey = e.rowKey();
    }
    last = e;
    entries++;
    tombstones += e.isTombstone() ? 1 : 0;
    minTs = Math.min(minTs, e.timestamp());
    maxTs = Math.max(maxTs, e.timestamp());
  }

  private void flushBlock() throws IOException {
    byte[] raw = block.toByteArray();
    Compression compression = options.compression();
    byte[] stored = compression.compress(raw);
    // Kept compressed only when that saves an eighth at least: a block that barely shrinks (random
    // values) would cost every read of it a decompression of the whole block for nothing.
    if (stored.length > raw.length - raw.length / MIN_SAVING_DIVISOR) {
      compression = Compression.NONE;
      stored = raw;
    }
    out.write(stored);
    blocks.add(new BlockInfo(last.rowKey(), last.timestamp(), position, stored.length, raw.length,
        blockEntries, compression, PositionedFile.crc32c(stored)));
    position += stored.length;
    rawBytes += raw.length;
    storedBytes += stored.length;
    block.reset();
    blockEntries = 0;
  }

  @Override
  public SegmentStats finish() throws IOException {
    if (finished) {
      throw new IllegalStateException("segment " + path + " is finished");
    }
    if (blockEntries > 0) {
      flushBlock();
    }
    byte[] filterBytes = filter.build(options.bloomBitsPerKey()).encode();
    long filterOffset = position;
    out.write(filterBytes);
    position += filterBytes.length;
    BlockIndex index = new BlockIndex(minKey, blocks);
    byte[] indexBytes = index.encode();
    long indexOffset = position;
    out.write(indexBytes);
    position += indexBytes.length;
    boolean empty = entries == 0;
    TrailerV1 trailer = new TrailerV1(filterOffset, filterBytes.length, PositionedFile.crc32c(filterBytes),
        indexOffset, indexBytes.length, PositionedFile.crc32c(indexBytes), entries, rows, tombstones,
        empty ? 0 : minTs, empty ? 0 : maxTs, rawBytes, storedBytes);
    out.write(trailer.encode());
    position += TrailerV1.BYTES;
    if (options.sync()) {
      out.hsync();
    }
    out.close();
    finished = true;
    boolean renamed;
    try {
      renamed = fs.rename(temporary, path);
    } catch (IOException e) {
      throw deleteTemporary(e);
    } catch (RuntimeException e) {
      throw deleteTemporary(e);
    }
    if (!renamed) {
      throw deleteTemporary(new IOException("could not rename the finished segment " + temporary + " to " + path));
    }
    return SegmentReaderV1.stats(identity, options.compression(), trailer, index, position);
  }

  @Override
  public void close() throws IOException {
    if (finished) {
      return;
    }
    finished = true;
    try {
      out.close();
    } catch (IOException e) {
      // A new exception: a failed HDFS stream's close throws its write's exception again, which the
      // failure being handled (try-with-resources) could not take as suppressed.
      throw new IOException("closing the unfinished segment " + temporary + " failed", e);
    } finally {
      fs.delete(temporary, false);
    }
  }

  /** Deletes the temporary file after {@code failure} (a failure to delete it is added to it); returns it. */
  private <E extends Throwable> E deleteTemporary(E failure) {
    try {
      fs.delete(temporary, false);
    } catch (IOException | RuntimeException e) {
      Failures.suppress(failure, e);
    }
    return failure;
  }

  /** Closes and deletes the file after {@code failure}, then throws it. */
  private void abandon(IOException failure) throws IOException {
    try {
      close();
    } catch (IOException e) {
      Failures.suppress(failure, e);
    }
    throw failure;
  }
}
