package org.logbase.log;

import java.io.IOException;

/**
 * Where log segments end for every reader once their writer is gone. The first process to read a
 * log whose writer it believes gone (a failover's new owner, a restart of the same server) seals
 * the log's newest segment at the length it sees; every later reader of that segment stops there,
 * whatever the file has grown to since. A writer that was only paused (past its ZooKeeper session,
 * on a file system without leases) and appends after it wakes adds nothing anyone reads, so no two
 * readers of one log can see two different ends of it: one tablet replaying a transaction's COMMIT
 * that another tablet of the same log never saw (docs/architecture.md, "Sealed logs").
 *
 * <p>Segments are named by cluster-wide file ids, so a seal is keyed by the segment's id alone. The
 * first seal of a segment wins and never changes.
 */
public interface LogSeals {
  /** What {@link #sealedLength} returns for a segment nobody has sealed. */
  long UNSEALED = -1;

  /** For tools that read a log whose writer is known to be gone and that no other reader shares: nothing is sealed. */
  LogSeals NONE = new LogSeals() {
    @Override
    public long sealedLength(long segment) {
      return UNSEALED;
    }

    @Override
    public long seal(long segment, long length) {
      throw new UnsupportedOperationException("these readers do not seal logs");
    }
  };

  /**
   * These seals as a live writer reads its own log: segments from {@code firstOwn} on are the ones
   * it writes itself, which nobody seals while it lives, so they are not asked about (a round trip
   * each, for a replay that may hold the write path while it reads).
   */
  default LogSeals olderThan(long firstOwn) {
    LogSeals all = this;
    return new LogSeals() {
      @Override
      public long sealedLength(long segment) throws IOException {
        return segment >= firstOwn ? UNSEALED : all.sealedLength(segment);
      }

      @Override
      public long seal(long segment, long length) throws IOException {
        return all.seal(segment, length);
      }
    };
  }

  /** The length segment {@code segment} is sealed at, or {@link #UNSEALED}. */
  long sealedLength(long segment) throws IOException;

  /**
   * Seals segment {@code segment} at {@code length} unless it is sealed already.
   *
   * @return the length the segment is sealed at: {@code length}, or the earlier seal's
   */
  long seal(long segment, long length) throws IOException;
}
