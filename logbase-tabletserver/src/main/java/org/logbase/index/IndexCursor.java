package org.logbase.index;

/**
 * A forward cursor over index entries. Call {@link #next()} before reading the first entry; the
 * accessors are valid only after {@code next()} returned true and throw
 * {@link IllegalStateException} otherwise. A cursor is used by one thread.
 */
public interface IndexCursor {

  /** Advances to the next entry; returns false at the end. */
  boolean next();

  /** The current key, as a fresh copy the caller may keep. */
  byte[] key();

  /** The current timestamp. */
  long timestamp();

  /** The current pointer. */
  long pointer();

  /** The current meta. */
  int meta();
}
