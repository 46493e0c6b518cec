package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Printed keys and values read back as the same bytes, and are text where they are text. */
class ByteTextTest {
  private final ByteText utf8 = new ByteText(StandardCharsets.UTF_8);

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void textIsTextAndOnlyTheUnprintableIsEscaped() {
    assertEquals("é", utf8.format(b("é"))); // used to print \xC3\xA9
    assertEquals("'Zoë B'", utf8.format(b("Zoë B")));
    assertEquals("\"it's\"", utf8.format(b("it's")));
    assertEquals("''", utf8.format(new byte[0]));
    assertEquals("tab\\x09x", utf8.format(b("tab\tx")));
    assertEquals("\\xC3", utf8.format(new byte[] {(byte) 0xC3}));
    assertEquals("a\\\\b", utf8.format(b("a\\b")));
    assertEquals("caf\\xC3\\xA9", new ByteText(StandardCharsets.US_ASCII).format(b("café")));
  }

  @Test
  void whatIsPrintedReadsBackAsTheSameBytes() {
    Random random = new Random(13);
    List<String> alphabet = List.of("a", " ", "'", "\"", "\\", ";", "é", "\n", "x", "=", "\u0000", "日");
    for (int n = 0; n < 5000; n++) {
      byte[] bytes;
      if (n % 2 == 0) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(8); i > 0; i--) {
          s.append(alphabet.get(random.nextInt(alphabet.size())));
        }
        bytes = b(s.toString());
      } else {
        bytes = new byte[random.nextInt(8)];
        random.nextBytes(bytes);
      }
      String printed = utf8.format(bytes);
      List<String> words = Words.split(printed);
      assertEquals(1, words.size(), printed);
      assertArrayEquals(bytes, ByteArgs.parse(words.get(0)), printed);
    }
  }
}
