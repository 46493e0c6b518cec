package org.logbase.tablet;

/**
 * Hands out commit timestamps. A local hybrid clock serves until the ZooKeeper-backed oracle of the
 * transactions issue replaces it behind this interface.
 */
public interface TimestampSource {
  /** A timestamp greater than every one handed out or observed before. */
  long next();

  /** Never hand out a timestamp at or below {@code ts} again (after recovery, for example). */
  void observe(long ts);
}
