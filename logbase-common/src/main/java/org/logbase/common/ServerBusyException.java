package org.logbase.common;

/**
 * The server is at a limit on work it holds open (scans, say) and took nothing of this request; the
 * request may succeed once other work there ends. The client library retries it with backoff until
 * its deadline.
 */
public class ServerBusyException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ServerBusyException(String message) {
    super(message);
  }
}
