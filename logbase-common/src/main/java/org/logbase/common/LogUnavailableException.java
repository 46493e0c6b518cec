package org.logbase.common;

/**
 * The server's log cannot persist writes now (an append or flush failed, and so did the retry on a
 * fresh segment: HDFS down, say), or no more (the log was closed meanwhile). The server refuses
 * writes rather than acknowledge what it could not persist; nothing acknowledged before is
 * affected. Sent again later, the write may succeed.
 */
public class LogUnavailableException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public LogUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** With a message as received from a server. */
  public LogUnavailableException(String message) {
    super(message);
  }
}
