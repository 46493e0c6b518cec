package org.logbase.common;

/**
 * Base of the errors LogBase reports to its users. Each subclass is one condition a caller can act
 * on; the message says what happened in words an operator understands.
 */
public class LogBaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LogBaseException(String message) {
    super(message);
  }

  public LogBaseException(String message, Throwable cause) {
    super(message, cause);
  }
}
