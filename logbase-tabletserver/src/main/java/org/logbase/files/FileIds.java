package org.logbase.files;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out data-file ids: unique in the cluster, never reused, and increasing for each caller (a
 * server's log segments are in log order when sorted by id). Ids fit in 32 bits, as index pointers
 * hold them ({@link org.logbase.log.LogPointer}).
 */
@FunctionalInterface
public interface FileIds {
  /** The largest id a pointer can hold. */
  long MAX_ID = 0xffff_ffffL;

  long next() throws IOException;

  /**
   * Makes sure every id handed out from now on is above {@code id} (the largest id of a file this
   * server already has: ids from an allocator that lost its state must not go back below it).
   */
  default void reserveAbove(long id) throws IOException {
    long n = next();
    if (n <= id) {
      throw new IOException("file id " + n + " is not above " + id + ", an id in use already");
    }
  }

  /** Ids above {@code max}, counted in memory: for one process that owns its directory (tests, tools). */
  static FileIds after(long max) {
    AtomicLong last = new AtomicLong(max);
    return () -> check(last.incrementAndGet());
  }

  /** Returns the id, or throws if it no longer fits in a pointer. */
  static long check(long id) throws IOException {
    if (id <= 0 || id > MAX_ID) {
      throw new IOException("file id " + id + " is out of range (1.." + MAX_ID + "): the cluster has used up its file ids");
    }
    return id;
  }
}
