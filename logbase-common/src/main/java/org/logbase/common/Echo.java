package org.logbase.common;

/**
 * A caller's input as an error message quotes it: cut to a bounded length, so that a message stays
 * readable and a gRPC status (sent in a header) stays small whatever the caller sent.
 */
public final class Echo {
  /** Characters of the caller's input an error message shows at most. */
  public static final int MAX_ECHO = 64;
  /** Characters of a whole error message a server sends at most. */
  public static final int MAX_MESSAGE = 1024;

  private Echo() {}

  /** {@code input} if short, else its beginning and how long it was. */
  public static String of(String input) {
    return cut(input, MAX_ECHO);
  }

  /** {@code text} if it has at most {@code max} characters, else its first ones and its length. */
  public static String cut(String text, int max) {
    if (text == null || text.length() <= max) {
      return text;
    }
    return text.substring(0, max) + "... (" + text.length() + " characters)";
  }
}
