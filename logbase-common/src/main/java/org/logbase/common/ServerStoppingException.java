package org.logbase.common;

/** The server is shutting down or lost its ZooKeeper session and serves no more requests. */
public class ServerStoppingException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ServerStoppingException(String message) {
    super(message);
  }
}
