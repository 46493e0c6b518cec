package org.logbase.common;

import java.util.concurrent.ExecutionException;

/** What a failed future threw, as the exception a caller should see; one failure kept in another. */
public final class Failures {
  private Failures() {}

  /**
   * Adds {@code other} to {@code into} as suppressed, unless it is {@code into} itself: a failed
   * HDFS output stream throws the very exception of its failed write again from every later call,
   * its close included, and an exception suppressing itself is an {@link IllegalArgumentException}
   * that replaces the failure being reported. (So is try-with-resources over such a stream: use
   * {@link Closeables#closeAfter} instead.)
   */
  public static void suppress(Throwable into, Throwable other) {
    if (other != null && other != into) {
      into.addSuppressed(other);
    }
  }

  /**
   * The cause of a failed future: a runtime exception as it is (a typed LogBase error keeps its
   * type), anything else wrapped in a {@link LogBaseException} saying what failed.
   */
  public static RuntimeException cause(ExecutionException e, String what) {
    Throwable c = e.getCause();
    return c instanceof RuntimeException r ? r : new LogBaseException(what + " failed: " + c, c);
  }
}
