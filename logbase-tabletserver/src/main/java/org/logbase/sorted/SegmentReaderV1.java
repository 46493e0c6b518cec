package org.logbase.sorted;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Closeables;

/**
 * Reads a format version 1 segment. Opening checks the footer, header, Bloom filter and block index
 * (CRC32C each, and that the parts tile the file); a data block is checked (CRC32C of the stored
 * bytes, decompression to the indexed raw length, its entries' structure and order) before any of
 * its entries is returned or it enters the block cache.
 */
final class SegmentReaderV1 implements SortedSegmentReader {
  private final PositionedFile file;
  private final SegmentStats stats;
  private final BloomFilter filter;
  private final BlockIndex index;
  private final BlockCache cache;
  private final ScanStreams streams;
  private final ReadAhead readAhead;
  private final BlockArrays arrays;

  private SegmentReaderV1(PositionedFile file, SegmentStats stats, BloomFilter filter, BlockIndex index,
      BlockCache cache, ReadAhead readAhead, BlockArrays arrays) {
    this.file = file;
    this.stats = stats;
    this.filter = filter;
    this.index = index;
    this.cache = cache;
    this.streams = new ScanStreams(file);
    this.readAhead = readAhead;
    this.arrays = arrays;
  }

  static SegmentReaderV1 open(PositionedFile file, BlockCache cache, ReadAhead readAhead, BlockArrays arrays)
      throws IOException {
    long length = file.length();
    if (length < SegmentFormatV1.HEADER_BYTES + TrailerV1.BYTES) {
      throw file.damage(0, "a file of " + length + " bytes is too short for format version 1 (truncated?)");
    }
    long footerOffset = length - TrailerV1.BYTES;
    byte[] footer = file.read(footerOffset, TrailerV1.BYTES, "footer");
    byte[] headerBytes = file.read(0, SegmentFormatV1.HEADER_BYTES, "header");
    TrailerV1 t;
    SegmentFormatV1.Header header;
    try {
      t = TrailerV1.decode(footer);
    } catch (IOException e) {
      throw file.damage(footerOffset, e.getMessage(), e);
    }
    try {
      header = SegmentFormatV1.readHeader(headerBytes);
    } catch (IOException e) {
      throw file.damage(0, e.getMessage(), e);
    }
    if (t.filterOffset() < SegmentFormatV1.HEADER_BYTES
        || t.indexOffset() != t.filterOffset() + t.filterLength()
        || t.indexOffset() + t.indexLength() != footerOffset) {
      throw file.damage(footerOffset, "footer places the filter and index outside their section");
    }
    byte[] filterBytes = file.readChecked(t.filterOffset(), t.filterLength(), t.filterCrc(), "Bloom filter");
    byte[] indexBytes = file.readChecked(t.indexOffset(), t.indexLength(), t.indexCrc(), "block index");
    BloomFilter filter;
    BlockIndex index;
    try {
      filter = BloomFilter.decode(filterBytes);
    } catch (IllegalArgumentException e) {
      throw file.damage(t.filterOffset(), e.getMessage(), e);
    }
    try {
      index = BlockIndex.decode(indexBytes, SegmentFormatV1.HEADER_BYTES, t.filterOffset());
    } catch (IOException e) {
      throw file.damage(t.indexOffset(), e.getMessage(), e);
    }
    long raw = 0;
    long entries = 0;
    for (BlockInfo b : index.blocks()) {
      raw += b.rawLength();
      entries += b.entryCount();
    }
    if (raw != t.rawBytes() || entries != t.entryCount()
        || t.filterOffset() - SegmentFormatV1.HEADER_BYTES != t.storedBytes()) {
      throw file.damage(t.indexOffset(), "block index and footer disagree on the data blocks");
    }
    SegmentStats stats = stats(header.identity(), header.compression(), t, index, length);
    return new SegmentReaderV1(file, stats, filter, index, cache, readAhead, arrays);
  }

  static SegmentStats stats(SegmentIdentity id, Compression compression, TrailerV1 t, BlockIndex index,
      long fileBytes) {
    return new SegmentStats(SegmentFormatV1.VERSION, id, compression, t.entryCount(), t.rowCount(),
        t.tombstoneCount(), index.minKey(), index.maxKey(), t.minTimestamp(), t.maxTimestamp(),
        t.rawBytes(), t.storedBytes(), index.size(), fileBytes);
  }

  @Override
  public Path path() {
    return file.path();
  }

  @Override
  public SegmentStats stats() {
    return stats;
  }

  @Override
  public List<BlockInfo> blocks() {
    return index.blocks();
  }

  @Override
  public boolean scansVerifyFileSystemChecksums() {
    return file.streamsVerify();
  }

  @Override
  public boolean mightContain(byte[] rowKey) {
    return filter.mightContain(rowKey);
  }

  @Override
  public SortedEntry get(byte[] rowKey, long asOfTimestamp) throws IOException {
    if (!filter.mightContain(rowKey)) {
      return null;
    }
    int i = index.find(rowKey, asOfTimestamp);
    if (i == index.size()) {
      return null;
    }
    DataBlock block = block(i);
    int at = block.seek(rowKey, asOfTimestamp);
    if (at == block.size()) {
      return null;
    }
    SortedEntry e = block.entry(at);
    return Arrays.equals(e.rowKey(), rowKey) ? e : null;
  }

  @Override
  public EntryIterator row(byte[] rowKey, long asOfTimestamp) {
    byte[] after = Arrays.copyOf(rowKey, rowKey.length + 1); // the smallest key after rowKey
    SegmentIterator it = new SegmentIterator(index, this::block, rowKey, after);
    it.seek(rowKey, asOfTimestamp);
    return it;
  }

  @Override
  public EntryIterator scan(byte[] startInclusive, byte[] endExclusive, boolean readAhead) {
    return scan(startInclusive, endExclusive, readAhead ? this.readAhead : ReadAhead.none(), null);
  }

  @Override
  public EntryIterator scan(byte[] startInclusive, byte[] endExclusive, BlockLoans loans) {
    return scan(startInclusive, endExclusive, readAhead, Objects.requireNonNull(loans, "loans"));
  }

  /** @param loans null: values copied */
  private EntryIterator scan(byte[] startInclusive, byte[] endExclusive, ReadAhead readAhead, BlockLoans loans) {
    // Blocks after the one that holds the first entry at or after the end hold nothing before it.
    int limit = Math.min(index.size(), index.endBlock(endExclusive) + 1);
    ScanBlocks blocks = new ScanBlocks(this, limit, readAhead, loans);
    return new SegmentIterator(index, blocks, startInclusive, endExclusive, loans != null);
  }

  BlockIndex index() {
    return index;
  }

  PositionedFile file() {
    return file;
  }

  ScanStreams streams() {
    return streams;
  }

  /** The arrays this reader's scans read blocks into. */
  BlockArrays arrays() {
    return arrays;
  }

  /** Block {@code i}, from the cache or read (positioned), checked and cached. */
  DataBlock block(int i) throws IOException {
    BlockCache.Key key = key(i);
    DataBlock cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    DataBlock block = read(i);
    cache.put(key, block);
    return block;
  }

  /** Block {@code i} if the cache holds it, else null. */
  DataBlock cached(int i) {
    return cache.get(key(i));
  }

  private BlockCache.Key key(int i) {
    return new BlockCache.Key(stats.identity().fileId(), index.get(i).offset());
  }

  /** Block {@code i} read with a positioned read and checked; not cached. */
  DataBlock read(int i) throws IOException {
    BlockInfo info = index.get(i);
    return check(i, file.read(info.offset(), info.storedLength(), name(i, info)));
  }

  /**
   * Block {@code i} from its stored bytes, {@code stored[0, storedLength)} of its index entry (the
   * array may be longer), however they were read: their CRC32C, decompression to
   * the indexed raw length, the structure and order of its entries.
   *
   * @throws SegmentDamageException naming the block if a check fails
   */
  DataBlock check(int i, byte[] stored) throws IOException {
    return check(i, stored, byte[]::new);
  }

  /** The same, a compressed block decompressed into an array {@code arrays} gives (a scan's). */
  DataBlock check(int i, byte[] stored, IntFunction<byte[]> arrays) throws IOException {
    BlockInfo info = index.get(i);
    Object what = name(i, info);
    int n = info.storedLength();
    file.checked(info.offset(), stored, n, info.crc(), what);
    try {
      return DataBlock.parse(info.compression().decompress(stored, n, info.rawLength(), arrays), info.rawLength(),
          info);
    } catch (IOException e) {
      throw file.damage(info.offset(), what + ": " + e.getMessage(), e);
    }
  }

  /** How a damage report names block {@code i}: made into a string only for a report. */
  static Object name(int i, BlockInfo info) {
    return new BlockName(i, info.compression());
  }

  private record BlockName(int block, Compression compression) {
    @Override
    public String toString() {
      return "data block " + block + " (" + compression + ")";
    }
  }

  /** Closes the file and the scans' idle streams (a stream a scan gives back later is closed then). */
  @Override
  public void close() throws IOException {
    Closeables.closeAll(List.of(streams, file));
  }
}
