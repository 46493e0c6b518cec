package org.logbase.common;

/**
 * A transaction could not commit because another transaction wrote one of its rows after it began,
 * or holds a lock on one of them now (first committer wins). Nothing of it was written; running it
 * again from the start, with a new snapshot, may succeed.
 */
public class TransactionConflictException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public TransactionConflictException(String message) {
    super(message);
  }
}
