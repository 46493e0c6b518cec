package org.logbase.common;

import java.io.Closeable;
import java.io.IOException;

/** Closing several things at once. */
public final class Closeables {
  private Closeables() {}

  /**
   * Closes each of {@code all}, every one even if an earlier one fails (with an {@link IOException}
   * or a runtime exception); then throws the first failure, with the later ones suppressed in it.
   */
  public static void closeAll(Iterable<? extends Closeable> all) throws IOException {
    Exception failure = null;
    for (Closeable c : all) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          Failures.suppress(failure, e);
        }
      }
    }
    if (failure instanceof IOException e) {
      throw e;
    }
    if (failure != null) {
      throw (RuntimeException) failure;
    }
  }

  /**
   * Closes each of {@code all} after {@code failure} ended the work that used them: a failure to
   * close is added to it as suppressed, so that it stays the one thrown.
   */
  public static void closeAllAfter(Iterable<? extends Closeable> all, Throwable failure) {
    try {
      closeAll(all);
    } catch (IOException | RuntimeException e) {
      Failures.suppress(failure, e);
    }
  }

  /**
   * Closes {@code c} after {@code failure} ended the work that used it: a failure to close (which
   * on a failed HDFS stream is {@code failure} itself, thrown again) is added to it as suppressed,
   * so that it stays the one thrown.
   */
  public static void closeAfter(Closeable c, Throwable failure) {
    try {
      c.close();
    } catch (IOException | RuntimeException e) {
      Failures.suppress(failure, e);
    }
  }
}
