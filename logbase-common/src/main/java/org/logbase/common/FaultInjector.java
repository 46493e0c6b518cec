package org.logbase.common;

import java.io.IOException;

/**
 * A seam for crash tests: components call {@link #at} at the moments where a crash is most
 * interesting (half a batch on disk, a checkpoint half written), and a test's injector may stop the
 * process there. Production code passes {@link #NONE}, which does nothing.
 */
@FunctionalInterface
public interface FaultInjector {
  FaultInjector NONE = point -> {};

  /** Called when execution reaches the named point; may block or throw to simulate a failure. */
  void at(String point) throws IOException;

  default boolean enabled() {
    return this != NONE;
  }
}
