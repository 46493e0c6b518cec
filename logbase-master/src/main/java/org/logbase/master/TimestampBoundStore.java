package org.logbase.master;

import java.util.Optional;

/**
 * Where the timestamp oracle persists its bound: read once when a master takes over, then only
 * written by compare-and-set, so that a master that is no longer the oracle cannot move it.
 */
interface TimestampBoundStore {
  /** The version to expect when no bound has ever been stored. */
  int NONE = -1;

  /** A stored bound and the version a compare-and-set must name to replace it. */
  record Versioned(long bound, int version) {}

  /** Another writer changed the bound since it was read. */
  final class ConflictException extends Exception {
    private static final long serialVersionUID = 1L;

    ConflictException(String message) {
      super(message);
    }
  }

  /**
   * Whether the store is reachable now. While it is not, another master may be taking over (our
   * session may have expired on the server), so the oracle must not hand out timestamps.
   */
  boolean connected();

  /** The stored bound; empty if none was ever stored. */
  Optional<Versioned> read() throws Exception;

  /**
   * Stores {@code bound} if the stored version is still {@code expectedVersion} ({@link #NONE}: if
   * nothing is stored yet) and returns the new version.
   *
   * @throws ConflictException if another writer came first
   */
  int write(long bound, int expectedVersion) throws Exception;
}
