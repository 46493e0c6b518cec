package org.logbase.tablet;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.logbase.common.HybridTimestamp;

/**
 * Local monotonic hybrid clock: wall-clock milliseconds in the high bits, a counter in the low 16.
 * Strictly increasing even if the wall clock steps back or more than 65536 timestamps are taken in a
 * millisecond (then it runs ahead of the wall clock until the wall clock catches up).
 */
public final class HybridClock implements TimestampSource {
  private final AtomicLong last = new AtomicLong();
  private final LongSupplier wallMillis;

  public HybridClock() {
    this(System::currentTimeMillis);
  }

  public HybridClock(LongSupplier wallMillis) {
    this.wallMillis = wallMillis;
  }

  @Override
  public long next() {
    long now = HybridTimestamp.of(wallMillis.getAsLong(), 0);
    return last.updateAndGet(prev -> Math.max(prev + 1, now));
  }

  @Override
  public long nextRange(int count) {
    long now = HybridTimestamp.of(wallMillis.getAsLong(), 0);
    return last.updateAndGet(prev -> Math.max(prev + count, now + count - 1)) - count + 1;
  }

  @Override
  public void observe(long ts) {
    last.accumulateAndGet(ts, Math::max);
  }

  @Override
  public long wallMillis() {
    return wallMillis.getAsLong();
  }
}
