package org.logbase.common;

/**
 * The server is at its limit of open scans ({@code scan.max.open}) and began nothing of this scan;
 * it may succeed once another scan there ends. The client library retries it with backoff until its
 * deadline, keeping the server's route (the server serves the tablet). Only scans are refused so
 * today: a transaction or admin call that ever is would have to report "nothing done", not the
 * "outcome unknown" of other retriable failures.
 */
public class ServerBusyException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public ServerBusyException(String message) {
    super(message);
  }
}
