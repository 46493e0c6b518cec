package org.logbase.common;

import java.util.concurrent.ExecutionException;

/** What a failed future threw, as the exception a caller should see. */
public final class Failures {
  private Failures() {}

  /**
   * The cause of a failed future: a runtime exception as it is (a typed LogBase error keeps its
   * type), anything else wrapped in a {@link LogBaseException} saying what failed.
   */
  public static RuntimeException cause(ExecutionException e, String what) {
    Throwable c = e.getCause();
    return c instanceof RuntimeException r ? r : new LogBaseException(what + " failed: " + c, c);
  }
}
