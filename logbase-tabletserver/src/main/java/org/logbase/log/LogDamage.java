package org.logbase.log;

/**
 * A stretch of a segment that does not hold valid records: the expected torn tail of a segment
 * whose writer died, or corruption in the middle that was skipped. Reported, never served.
 *
 * @param length bytes skipped (for a torn tail: up to the end of the file)
 */
public record LogDamage(Kind kind, long segment, long offset, long length, String detail) {
  public enum Kind {
    /** Bytes after the last valid record of a segment: an interrupted write. Expected after a crash. */
    TORN_TAIL,
    /** Invalid bytes followed by valid records: real corruption; the records in it are lost. */
    CORRUPT
  }

  @Override
  public String toString() {
    return kind + " in segment " + segment + " at offset " + offset + " (" + length + " bytes): " + detail;
  }
}
