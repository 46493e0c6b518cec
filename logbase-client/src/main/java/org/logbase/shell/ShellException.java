package org.logbase.shell;

/** A mistake in what the user typed; its message is the whole error report. */
final class ShellException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ShellException(String message) {
    super(message);
  }
}
