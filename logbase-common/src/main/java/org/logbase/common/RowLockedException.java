package org.logbase.common;

/**
 * A batch of independent writes that asked not to wait was refused because one of its rows is
 * locked by a prepared transaction. Nothing of the batch was written; its writes may be sent again
 * one by one, so that only the writer of the locked row waits.
 */
public class RowLockedException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public RowLockedException(String message) {
    super(message);
  }
}
