package org.logbase.shell;

import java.util.function.Supplier;

/**
 * Whether the user asked to cancel the command that runs (Ctrl-C in the interactive shell), and the
 * sections of a command that must run to their end whatever the user presses.
 */
interface Cancellation {
  /** Whether the running command was asked to stop. */
  boolean requested();

  /** Runs {@code work} to its end: a cancel meanwhile does not interrupt it. */
  <T> T uninterruptibly(Supplier<T> work);

  /** Fails the running command if the user asked to stop it (for loops that do not block). */
  default void check() {
    if (requested()) {
      throw new ShellException("cancelled");
    }
  }

  /** Scripts and -e: nothing cancels a command (Ctrl-C ends the process). */
  Cancellation NONE = new Cancellation() {
    @Override
    public boolean requested() {
      return false;
    }

    @Override
    public <T> T uninterruptibly(Supplier<T> work) {
      return work.get();
    }
  };
}
