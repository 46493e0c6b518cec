package org.logbase.shell;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * How the shell prints keys and values, so that what it prints can be typed back: valid UTF-8 as
 * text, {@code \xNN} for each byte of anything else (invalid UTF-8, control and other unprintable
 * characters, and characters the output cannot show), {@code \\} for a backslash, and in quotes
 * when empty or holding spaces, quotes or ';'. The inverse of {@link Words} and {@link ByteArgs}.
 */
final class ByteText {
  private final Charset output;

  /** @param output the charset the text is written in: characters it cannot encode are escaped */
  ByteText(Charset output) {
    this.output = output;
  }

  String format(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length + 8);
    CharsetEncoder encoder = output.newEncoder();
    int i = 0;
    while (i < bytes.length) {
      int n = sequenceLength(bytes, i);
      String ch = n == 0 ? null : decode(bytes, i, n);
      if (ch != null && printable(ch.codePointAt(0)) && encoder.canEncode(ch)) {
        text.append(ch.equals("\\") ? "\\\\" : ch);
        i += n;
      } else {
        for (int end = i + Math.max(1, n); i < end; i++) {
          text.append(String.format("\\x%02X", bytes[i] & 0xFF));
        }
      }
    }
    return quoted(text.toString());
  }

  /** In quotes when a word would otherwise not come back as one: empty, spaces, quotes, ';'. */
  private static String quoted(String escaped) {
    boolean plain = !escaped.isEmpty() && escaped.chars().noneMatch(c -> Character.isWhitespace(c) || c == '\''
        || c == '"' || c == ';');
    if (plain) {
      return escaped;
    }
    // The shell reads a backslash before a quote as escaping the quote: such a backslash is \x5C.
    String text = escaped.replace("\\\\'", "\\x5C'").replace("\\\\\"", "\\x5C\"");
    if (text.endsWith("\\\\")) {
      text = text.substring(0, text.length() - 2) + "\\x5C";
    }
    if (text.indexOf('\'') < 0) {
      return "'" + text + "'";
    }
    if (text.indexOf('"') < 0) {
      return "\"" + text + "\"";
    }
    return "'" + text.replace("'", "\\'") + "'";
  }

  /** The length of the UTF-8 sequence a lead byte starts (1 to 4), or 0 for a byte no sequence starts with. */
  private static int sequenceLength(byte[] b, int at) {
    int lead = b[at] & 0xFF;
    int n = lead < 0x80 ? 1 : lead >= 0xC2 && lead < 0xE0 ? 2 : lead >= 0xE0 && lead < 0xF0 ? 3
        : lead >= 0xF0 && lead < 0xF5 ? 4 : 0;
    return at + n <= b.length ? n : 0;
  }

  /** The character a sequence encodes, or null if it is not valid UTF-8. */
  private static String decode(byte[] b, int at, int n) {
    CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      CharBuffer c = d.decode(ByteBuffer.wrap(b, at, n));
      return c.toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static boolean printable(int codePoint) {
    int type = Character.getType(codePoint);
    return type != Character.CONTROL && type != Character.FORMAT && type != Character.SURROGATE
        && type != Character.UNASSIGNED && type != Character.PRIVATE_USE && type != Character.LINE_SEPARATOR
        && type != Character.PARAGRAPH_SEPARATOR && (codePoint == ' ' || !Character.isWhitespace(codePoint));
  }
}
