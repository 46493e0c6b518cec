package org.logbase.sorted;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/** A {@link BlockCache} bounded by the bytes of the blocks it holds (Caffeine, W-TinyLFU eviction). */
public final class CaffeineBlockCache implements BlockCache {
  private final Cache<Key, DataBlock> cache;

  public CaffeineBlockCache(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
    }
    this.cache = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .weigher((Key k, DataBlock b) -> b.weight())
        .build();
  }

  @Override
  public DataBlock get(Key key) {
    return cache.getIfPresent(key);
  }

  @Override
  public void put(Key key, DataBlock block) {
    cache.put(key, block);
  }

  /** Bytes the cached blocks weigh now (after pending evictions). */
  public long weightedBytes() {
    cache.cleanUp();
    return cache.policy().eviction().orElseThrow().weightedSize().orElseThrow();
  }
}
