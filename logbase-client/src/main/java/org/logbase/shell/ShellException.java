package org.logbase.shell;

/** A mistake in what the user typed; its message is the whole error report. */
final class ShellException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ShellException(String message) {
    super(message);
  }

  /** A failure the shell explains in its own words; the cause is kept for --debug. */
  ShellException(String message, Throwable cause) {
    super(message, cause);
  }
}
