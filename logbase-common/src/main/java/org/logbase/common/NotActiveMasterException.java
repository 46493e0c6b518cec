package org.logbase.common;

/** The master asked is not (or no longer) the active one; clients look the active master up again. */
public class NotActiveMasterException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public NotActiveMasterException(String message) {
    super(message);
  }
}
