package org.logbase.common.rpc;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.logbase.common.Echo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gRPC's server logs every connection that fails at the transport level (garbage bytes, a client
 * that is not HTTP/2) with a full stack trace, through java.util.logging: some 20 lines each. This
 * turns each into one warning line, and logs at most {@link #LINES_PER_WINDOW} of them per
 * {@link #WINDOW_MS}; the next line logged says how many were left out. The servers install it
 * with {@link GrpcServerLogging#install()}.
 */
public final class BadConnectionLog implements Filter {
  static final int LINES_PER_WINDOW = 10;
  static final long WINDOW_MS = 60_000;

  private static final Logger LOG = LoggerFactory.getLogger(BadConnectionLog.class);

  private long windowStart = Long.MIN_VALUE;
  private int linesInWindow;
  private long leftOut;
  private long seen;

  BadConnectionLog() {}

  /** Logs the record its own way (or not at all) and tells java.util.logging to drop it. */
  @Override
  public boolean isLoggable(LogRecord record) {
    Throwable t = record.getThrown();
    String what = t == null ? record.getMessage()
        : t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    String line = next(System.currentTimeMillis());
    if (line != null) {
      LOG.warn("bad connection closed ({}){}", Echo.cut(what.replaceAll("\\s+", " "), 200), line);
    }
    return false;
  }

  /** Failed connections seen so far. */
  synchronized long seen() {
    return seen;
  }

  /** null if this line is left out, else what to append to it (how many were left out before). */
  private synchronized String next(long nowMs) {
    seen++;
    if (windowStart == Long.MIN_VALUE || nowMs - windowStart >= WINDOW_MS) {
      windowStart = nowMs;
      linesInWindow = 0;
    }
    if (linesInWindow >= LINES_PER_WINDOW) {
      leftOut++;
      return null;
    }
    linesInWindow++;
    String note = leftOut == 0 ? ""
        : "; " + leftOut + " more were left out before (at most " + LINES_PER_WINDOW + " lines a minute)";
    leftOut = 0;
    return note;
  }
}
