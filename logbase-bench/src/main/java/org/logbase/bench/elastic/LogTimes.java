package org.logbase.bench.elastic;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Times of the daemons' log lines (log4j's ISO8601 layout, local time), as epoch milliseconds. */
final class LogTimes {
  private static final DateTimeFormatter ISO8601 = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS", Locale.ROOT);

  private LogTimes() {}

  /** {@code "2026-11-25 17:11:19,264"} as epoch milliseconds in this machine's zone (the daemons' too). */
  static long millis(String stamp) {
    return LocalDateTime.parse(stamp, ISO8601).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
  }
}
