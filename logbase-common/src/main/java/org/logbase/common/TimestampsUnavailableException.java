package org.logbase.common;

/**
 * The timestamp oracle could not hand out timestamps in time, because it could not renew its bound
 * in ZooKeeper. Retriable: either ZooKeeper answers again, or another master takes over.
 */
public class TimestampsUnavailableException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public TimestampsUnavailableException(String message) {
    super(message);
  }
}
