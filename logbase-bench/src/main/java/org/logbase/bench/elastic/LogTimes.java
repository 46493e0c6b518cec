package org.logbase.bench.elastic;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Times of the daemons' log lines ({@code HH:mm:ss,SSS}, local time, no date: the chaos cluster's
 * log layout), as epoch milliseconds: on the day that puts them nearest a known moment.
 */
final class LogTimes {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss,SSS", Locale.ROOT);
  private static final long HALF_DAY_MS = 12L * 3600 * 1000;
  private static final long DAY_MS = 2 * HALF_DAY_MS;

  private LogTimes() {}

  /** {@code "17:11:19,264"} as epoch milliseconds, on the day nearest {@code nearMillis}. */
  static long millis(String time, long nearMillis) {
    ZoneId zone = ZoneId.systemDefault();
    LocalDate day = Instant.ofEpochMilli(nearMillis).atZone(zone).toLocalDate();
    long at = LocalTime.parse(time, TIME).atDate(day).atZone(zone).toInstant().toEpochMilli();
    if (at - nearMillis > HALF_DAY_MS) {
      return at - DAY_MS;
    }
    return nearMillis - at > HALF_DAY_MS ? at + DAY_MS : at;
  }
}
