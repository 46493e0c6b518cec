package org.logbase.sorted;

/**
 * How a sorted segment is written.
 *
 * @param compression the column group's block compression
 * @param blockBytes target raw (uncompressed) size of a data block: a block is closed before an
 *     entry that would take it past this size, so blocks are at most this large unless one entry
 *     alone is larger (it then fills a block by itself)
 * @param bloomBitsPerKey Bloom filter bits per distinct row key (10 gives about 1% false positives)
 * @param sync whether {@link SortedSegmentWriter#finish} makes the file durable ({@code hsync})
 *     before it renames it: false only for files a crash may lose (a compaction's temporary runs)
 */
public record SegmentOptions(Compression compression, int blockBytes, int bloomBitsPerKey, boolean sync) {
  public static final int DEFAULT_BLOCK_BYTES = 64 * 1024;
  public static final int DEFAULT_BLOOM_BITS_PER_KEY = 10;
  public static final int MAX_BLOOM_BITS_PER_KEY = 64;

  public SegmentOptions {
    if (compression == null) {
      throw new IllegalArgumentException("compression must be set");
    }
    if (blockBytes < 1) {
      throw new IllegalArgumentException("blockBytes must be positive: " + blockBytes);
    }
    if (bloomBitsPerKey < 1 || bloomBitsPerKey > MAX_BLOOM_BITS_PER_KEY) {
      throw new IllegalArgumentException(
          "bloomBitsPerKey must be in 1.." + MAX_BLOOM_BITS_PER_KEY + ": " + bloomBitsPerKey);
    }
  }

  /** 64 KiB blocks, 10 Bloom bits per key, with the given compression. */
  public static SegmentOptions defaults(Compression compression) {
    return new SegmentOptions(compression, DEFAULT_BLOCK_BYTES, DEFAULT_BLOOM_BITS_PER_KEY, true);
  }

  public SegmentOptions withBlockBytes(int bytes) {
    return new SegmentOptions(compression, bytes, bloomBitsPerKey, sync);
  }

  public SegmentOptions withBloomBitsPerKey(int bits) {
    return new SegmentOptions(compression, blockBytes, bits, sync);
  }

  /** The same, written without {@code hsync}: for files a crash may lose. */
  public SegmentOptions withoutSync() {
    return new SegmentOptions(compression, blockBytes, bloomBitsPerKey, false);
  }
}
