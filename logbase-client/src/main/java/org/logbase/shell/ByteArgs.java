package org.logbase.shell;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Keys and values typed as text: UTF-8, with {@code \xNN} for any byte and {@code \\} for a
 * backslash, the inverse of {@link org.logbase.common.Bytes#toStringBinary}.
 */
final class ByteArgs {
  private ByteArgs() {}

  static byte[] parse(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    StringBuilder plain = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\') {
        plain.append(c);
        continue;
      }
      out.writeBytes(plain.toString().getBytes(StandardCharsets.UTF_8));
      plain.setLength(0);
      if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
        out.write('\\');
        i++;
      } else if (i + 1 < text.length() && text.charAt(i + 1) == 'x' && hex(text, i + 2) >= 0) {
        out.write(hex(text, i + 2));
        i += 3;
      } else {
        throw new ShellException("invalid escape in '" + text + "' at position " + i + ": use \\xNN for a byte"
            + " or \\\\ for a backslash");
      }
    }
    out.writeBytes(plain.toString().getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** The byte written as two hex digits at {@code at}, or -1. */
  private static int hex(String s, int at) {
    if (at + 2 > s.length()) {
      return -1;
    }
    int hi = Character.digit(s.charAt(at), 16);
    int lo = Character.digit(s.charAt(at + 1), 16);
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
  }
}
