package org.logbase.common;

/** The server does not serve the tablet a request named (it moved, or was never assigned there); clients refresh their tablet locations and retry. */
public class NotServingTabletException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public NotServingTabletException(String message) {
    super(message);
  }
}
