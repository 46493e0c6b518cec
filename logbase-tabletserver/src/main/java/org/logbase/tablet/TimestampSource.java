package org.logbase.tablet;

/**
 * Hands out commit and snapshot timestamps: the cluster's oracle on a tablet server, a local hybrid
 * clock for a storage engine on its own.
 */
public interface TimestampSource {
  /** A timestamp greater than every one handed out or observed before. */
  long next();

  /** The first of {@code count} consecutive fresh timestamps (one request to the oracle for all). */
  long nextRange(int count);

  /** Never hand out a timestamp at or below {@code ts} again (after recovery, for example). */
  void observe(long ts);

  /**
   * The oldest snapshot a client holds in the cluster (a long transaction): compaction keeps every
   * version it reads. 0: none; a storage engine on its own has no clients that could.
   */
  default long oldestHeldSnapshot() {
    return 0;
  }

  /** Wall-clock milliseconds now: when versions pass their time to live. */
  default long wallMillis() {
    return System.currentTimeMillis();
  }
}
