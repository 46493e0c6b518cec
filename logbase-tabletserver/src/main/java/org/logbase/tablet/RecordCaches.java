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

  public static RecordCache create(Config c) {
    long bytes = c.getBytes(MAX_BYTES, 256L << 20);
    return switch (c.getEnum(POLICY, Policy.class, Policy.TINYLFU)) {
      case TINYLFU -> bytes == 0 ? new NoRecordCache() : new CaffeineRecordCache(bytes);
      case NONE -> new NoRecordCache();
    };
  }
}
