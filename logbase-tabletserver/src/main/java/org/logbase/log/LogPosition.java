package org.logbase.log;

/** A place in the log: a segment and a byte offset in it. Ordered by segment, then offset. */
public record LogPosition(long segment, long offset) implements Comparable<LogPosition> {
  /** Before every segment: replay from here reads the whole log. */
  public static final LogPosition START = new LogPosition(0, 0);

  @Override
  public int compareTo(LogPosition o) {
    int c = Long.compare(segment, o.segment);
    return c != 0 ? c : Long.compare(offset, o.offset);
  }

  public LogPosition min(LogPosition o) {
    return compareTo(o) <= 0 ? this : o;
  }
}
