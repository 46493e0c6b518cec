package org.logbase.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits shell input into statements (at ';') and statements into words (at whitespace), honouring
 * '...' and "..." quotes. A backslash only escapes a quote character; every other backslash is kept,
 * so that {@code \xNN} byte escapes reach {@link ByteArgs} intact.
 */
final class Words {
  private Words() {}

  /** The words of one statement. */
  static List<String> split(String statement) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null; // null between words; "" is a word after ''
    char quote = 0;
    for (int i = 0; i < statement.length(); i++) {
      char c = statement.charAt(i);
      if (c == '\\' && i + 1 < statement.length() && isQuote(statement.charAt(i + 1))) {
        word = word == null ? new StringBuilder() : word;
        word.append(statement.charAt(++i));
      } else if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (isQuote(c)) {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (quote != 0) {
      throw new ShellException("unterminated " + quote + " quote");
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  /** The statements of a line, split at ';' outside quotes; blank ones dropped. */
  static List<String> statements(String text) {
    List<String> statements = new ArrayList<>();
    int start = 0;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length() && isQuote(text.charAt(i + 1))) {
        i++;
      } else if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (isQuote(c)) {
        quote = c;
      } else if (c == ';') {
        statements.add(text.substring(start, i));
        start = i + 1;
      }
    }
    statements.add(text.substring(start));
    return statements.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  private static boolean isQuote(char c) {
    return c == '"' || c == '\'';
  }
}
