package org.logbase.files;

/**
 * Holds off the close of a file this server writes while a read of it is under way: what a reader
 * that opens a file through a stream of its own (a replay of this server's live log) takes, as
 * {@link FileRegistry}'s reads do by themselves (it says why: HDFS-17342).
 */
public interface ReadGuard {
  /** For files nobody writes while they are read (another server's log, tools, tests). */
  ReadGuard NONE = id -> () -> {};

  /** Until the hold is closed, file {@code id} is not closed by its writer here (if this server writes it). */
  Hold reading(long id);

  /** A read under way; {@link #close} ends it. */
  interface Hold extends AutoCloseable {
    @Override
    void close();
  }
}
