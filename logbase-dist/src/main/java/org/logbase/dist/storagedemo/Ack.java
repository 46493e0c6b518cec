package org.logbase.dist.storagedemo;

/**
 * An acknowledged write, as the writer prints it ({@code ACK key seq kind ts}) for a process outside
 * to record before the writer is killed.
 */
public record Ack(String key, long seq, CheckedValues.Kind kind, long timestamp) {
  public static final String PREFIX = "ACK ";

  public String line() {
    return PREFIX + key + " " + seq + " " + kind + " " + timestamp;
  }

  /** Parses an ACK line; null for any other line. */
  public static Ack parse(String line) {
    if (!line.startsWith(PREFIX)) {
      return null;
    }
    String[] p = line.substring(PREFIX.length()).trim().split(" ");
    if (p.length != 4) {
      return null;
    }
    return new Ack(p[0], Long.parseLong(p[1]), CheckedValues.Kind.valueOf(p[2]), Long.parseLong(p[3]));
  }
}
