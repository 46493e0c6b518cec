package org.logbase.tablet;

import java.util.concurrent.atomic.LongAdder;
import org.logbase.log.LogRecord;

/** Caches nothing: every read goes to the log. For benchmarks of the uncached read path. */
public final class NoRecordCache implements RecordCache {
  private final LongAdder misses = new LongAdder();

  @Override
  public LogRecord get(long pointer) {
    misses.increment();
    return null;
  }

  @Override
  public void put(long pointer, LogRecord record, int frameLength) {}

  @Override
  public CacheStats stats() {
    return new CacheStats(0, misses.sum(), 0, 0);
  }
}
