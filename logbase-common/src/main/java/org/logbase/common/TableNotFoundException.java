package org.logbase.common;

/** No table of that name exists. */
public class TableNotFoundException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public TableNotFoundException(String message) {
    super(message);
  }
}
