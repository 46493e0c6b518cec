package org.logbase.common;

/**
 * A server did not answer one attempt of a request within the attempt's timeout, while the request
 * as a whole still had time: the server may be paused or overloaded, and its tablets may be moving
 * elsewhere. Retriable: the client looks the tablet up again and sends the request anew (only
 * requests that may be repeated are retried this way).
 */
public class ServerUnresponsiveException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ServerUnresponsiveException(String message) {
    super(message);
  }
}
