package org.logbase.tablet;

import org.logbase.common.Config;

/** Builds the record cache a configuration asks for. */
public final class RecordCaches {
  public static final String POLICY = "cache.policy";
  public static final String MAX_BYTES = "cache.max.bytes";

  /** The cache policies to choose from with {@value #POLICY}. */
  public enum Policy {
    /** Caffeine's Window TinyLFU (default). */
    TINYLFU,
    /** No cache. */
    NONE
  }

  private RecordCaches() {}

  /**
   * The cache size when none is configured: 256 MB, but at most an eighth of the heap. Every write
   * passes through the cache, so what it holds is old-generation garbage soon after; a cache near
   * G1's marking threshold (45 % of the heap) kept a 512 MB server marking without pause, about a
   * fifth of a core, while one eighth of the heap left the collector idle.
   */
  public static long defaultMaxBytes() {
    return Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8);
  }

  public static RecordCache create(Config c) {
    long bytes = c.getBytes(MAX_BYTES, defaultMaxBytes());
    return switch (c.getEnum(POLICY, Policy.class, Policy.TINYLFU)) {
      case TINYLFU -> bytes == 0 ? new NoRecordCache() : new CaffeineRecordCache(bytes);
      case NONE -> new NoRecordCache();
    };
  }
}
