package org.logbase.common;

/** A row key outside the key range of the tablet that was asked to serve it. */
public class KeyOutOfRangeException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public KeyOutOfRangeException(String message) {
    super(message);
  }
}
