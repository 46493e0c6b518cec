package org.logbase.common.schema;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.logbase.common.Echo;

/**
 * How a column group keeps its versions and stores its compacted data: the retention HBase users know
 * (maximum versions per row, time to live), kept by compaction and honoured by reads at once, and the
 * block compression of its sorted segments (docs/client.md, "Retention").
 *
 * @param maxVersions versions of a row kept, newest first; 0: all
 * @param ttlMs versions whose timestamp is older than this (wall time) are dropped; 0: kept forever
 * @param compression how the group's sorted segments compress their blocks
 */
public record StoragePolicy(int maxVersions, long ttlMs, BlockCompression compression) {
  /** All versions, forever, LZ4. */
  public static final StoragePolicy DEFAULT = new StoragePolicy(0, 0, BlockCompression.LZ4);
  /** A time to live longer than this is refused (about 100 years, in milliseconds). */
  public static final long MAX_TTL_MS = 100L * 366 * 24 * 3600 * 1000;

  /** Block compression of sorted segments. */
  public enum BlockCompression {
    NONE,
    LZ4,
    ZSTD;

    /** By name, any case; an unknown name is refused with the names there are. */
    public static BlockCompression parse(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("compression '" + Echo.of(name) + "' is not one of none, lz4, zstd", e);
      }
    }
  }

  public StoragePolicy {
    Objects.requireNonNull(compression, "compression");
    if (maxVersions < 0) {
      throw new IllegalArgumentException("max versions must be 0 (all) or more: " + maxVersions);
    }
    if (ttlMs < 0 || ttlMs > MAX_TTL_MS) {
      throw new IllegalArgumentException("time to live must be 0 (forever) to " + MAX_TTL_MS + " ms: " + ttlMs);
    }
  }

  /**
   * A time to live in milliseconds, as {@link #ttlMs} takes it: {@link Duration#ZERO} is forever.
   *
   * @throws IllegalArgumentException for a negative one or one above {@link #MAX_TTL_MS}
   */
  public static long ttlMillis(Duration ttl) {
    if (ttl.isNegative() || ttl.compareTo(Duration.ofMillis(MAX_TTL_MS)) > 0) {
      throw new IllegalArgumentException("time to live must be 0 (forever) to " + MAX_TTL_MS + " ms: " + ttl);
    }
    return ttl.toMillis();
  }

  public StoragePolicy withMaxVersions(int n) {
    return new StoragePolicy(n, ttlMs, compression);
  }

  public StoragePolicy withTtlMs(long ms) {
    return new StoragePolicy(maxVersions, ms, compression);
  }

  public StoragePolicy withCompression(BlockCompression c) {
    return new StoragePolicy(maxVersions, ttlMs, c);
  }

  /**
   * Whether a version is past the time to live at {@code nowMs}.
   *
   * @param wallMs the version's timestamp as wall-clock milliseconds
   */
  public boolean expired(long wallMs, long nowMs) {
    return ttlMs > 0 && wallMs < nowMs - ttlMs;
  }
}
