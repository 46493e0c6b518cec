package org.logbase.common;

/** A request that cannot be carried out as sent: malformed, missing fields, bad names or ranges. */
public class InvalidRequestException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public InvalidRequestException(String message) {
    super(message);
  }
}
