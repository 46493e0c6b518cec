package org.logbase.common;

/** A key, value or whole write exceeds a configured limit. */
public class ValueTooLargeException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ValueTooLargeException(String what, long size, long limit) {
    super(what + " is " + size + " bytes; the limit is " + limit + " bytes");
  }

  /** With a message as received from a server. */
  public ValueTooLargeException(String message) {
    super(message);
  }
}
