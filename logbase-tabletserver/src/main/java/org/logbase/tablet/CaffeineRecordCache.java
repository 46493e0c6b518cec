package org.logbase.tablet;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.logbase.log.LogRecord;

/**
 * The default cache: Caffeine's Window TinyLFU, bounded by the bytes of the frames it holds. TinyLFU
 * keeps a scan of cold records from flushing out the hot ones, which plain LRU would not.
 */
public final class CaffeineRecordCache implements RecordCache {
  /** Per-entry overhead beyond the frame bytes, roughly (objects, node, arrays). */
  private static final int ENTRY_OVERHEAD = 160;

  private record Entry(LogRecord record, int weight) {}

  private final Cache<Long, Entry> cache;

  public CaffeineRecordCache(long maxBytes) {
    this.cache = Caffeine.newBuilder()
        // Maintenance on the calling thread: the log writer fills the cache, and handing the work
        // to the common pool costs it a thread wake-up per insert (measured: 2-4 us vs 0.5 us).
        .executor(Runnable::run)
        .maximumWeight(maxBytes)
        .weigher((Long k, Entry e) -> e.weight())
        .recordStats()
        .build();
  }

  @Override
  public LogRecord get(long pointer) {
    Entry e = cache.getIfPresent(pointer);
    return e == null ? null : e.record();
  }

  @Override
  public void put(long pointer, LogRecord record, int frameLength) {
    cache.put(pointer, new Entry(record, frameLength + ENTRY_OVERHEAD));
  }

  @Override
  public RecordCache.CacheStats stats() {
    com.github.benmanes.caffeine.cache.stats.CacheStats s = cache.stats();
    long weight = cache.policy().eviction().map(ev -> ev.weightedSize().orElse(0)).orElse(0L);
    return new RecordCache.CacheStats(s.hitCount(), s.missCount(), cache.estimatedSize(), weight);
  }
}
