package org.logbase.common;

/**
 * A transaction was aborted before it committed: a participant failed, or it stayed prepared longer
 * than the lock timeout and was resolved as aborted by its primary. Nothing of it is visible.
 */
public class TransactionAbortedException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public TransactionAbortedException(String message) {
    super(message);
  }
}
