package org.logbase.sorted;

/**
 * Decoded data blocks of sorted segments, shared by the readers of a server. A block enters the
 * cache only after it passed its checks, so a cached block is always good. Implementations must be
 * thread-safe. {@link CaffeineBlockCache} bounds the cache by bytes; {@link #none} caches nothing.
 */
public interface BlockCache {

  /** A block is named by its file's cluster-wide id and its offset in that file. */
  record Key(long fileId, long offset) {}

  /** The cached block, or null. */
  DataBlock get(Key key);

  void put(Key key, DataBlock block);

  /** A cache that holds nothing: every read goes to the file. */
  static BlockCache none() {
    return NoBlockCache.INSTANCE;
  }

  /** The cache of {@link #none}. */
  final class NoBlockCache implements BlockCache {
    static final NoBlockCache INSTANCE = new NoBlockCache();

    private NoBlockCache() {}

    @Override
    public DataBlock get(Key key) {
      return null;
    }

    @Override
    public void put(Key key, DataBlock block) {}
  }
}
