package org.logbase.common;

/** A table of that name exists already. */
public class TableExistsException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public TableExistsException(String message) {
    super(message);
  }
}
