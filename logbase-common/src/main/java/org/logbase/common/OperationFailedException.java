package org.logbase.common;

/**
 * An admin operation (a move, a split) that did not complete for a reason the message gives, such
 * as a server that died or did not answer meanwhile, with what became of it (rolled back, or left
 * for the master to finish). Not a bug in the server: the cluster is consistent, and the operation
 * may be asked for again.
 */
public class OperationFailedException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public OperationFailedException(String message) {
    super(message);
  }

  public OperationFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
