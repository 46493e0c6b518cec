package org.logbase.tablet;

import org.logbase.log.LogRecord;

/**
 * Recently written and read records by log pointer. Records at a pointer never change, so entries
 * never need invalidating; only the policy deciding what to keep differs between implementations.
 */
public interface RecordCache {
  /** The cached record at {@code pointer}, or null. */
  LogRecord get(long pointer);

  void put(long pointer, LogRecord record, int frameLength);

  /** Hit and miss counts since start, for status pages and benchmarks. */
  CacheStats stats();

  /** Counters of a cache. */
  record CacheStats(long hits, long misses, long entries, long weightBytes) {}
}
