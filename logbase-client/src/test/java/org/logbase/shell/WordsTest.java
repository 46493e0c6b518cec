package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;
import org.logbase.common.HybridTimestamp;

/** Tokenising, byte escapes and timestamps as typed in the shell. */
class WordsTest {
  @Test
  void splitsWordsHonouringQuotes() {
    assertEquals(List.of("put", "t", "k", "name=Ann Lee", "x=it's", ""),
        Words.split("  put t k \"name=Ann Lee\" x=it\\'s ''  "));
    assertEquals(List.of("a\\x00b"), Words.split("a\\x00b"));
    assertThrows(ShellException.class, () -> Words.split("put 'open"));
  }

  @Test
  void splitsStatementsAtSemicolonsOutsideQuotes() {
    assertEquals(List.of("put t k v='a;b'", "get t k"), Words.statements("put t k v='a;b'; ;get t k;"));
  }

  @Test
  void parsesByteEscapes() {
    assertArrayEquals(new byte[] {'k', 0, (byte) 0xff, '\\'}, ByteArgs.parse("k\\x00\\xFf\\\\"));
    assertArrayEquals(Bytes.utf8("é"), ByteArgs.parse("é"));
    byte[] any = {0, 1, (byte) 0x80, '\\', 'z'};
    assertArrayEquals(any, ByteArgs.parse(Bytes.toStringBinary(any)), "round trip with toStringBinary");
    assertThrows(ShellException.class, () -> ByteArgs.parse("bad\\q"));
    assertThrows(ShellException.class, () -> ByteArgs.parse("short\\x1"));
  }

  @Test
  void parsesTimestamps() {
    assertEquals(12345L, TimestampArgs.parse("12345"));
    Instant t = Instant.parse("2024-05-01T10:00:00Z");
    assertEquals(HybridTimestamp.atInstant(t), TimestampArgs.parse("2024-05-01T10:00:00Z"));
    long ts = HybridTimestamp.of(t.toEpochMilli(), 7);
    assertEquals(ts, TimestampArgs.parse(HybridTimestamp.toString(ts)), "the printed form reads back");
    assertThrows(ShellException.class, () -> TimestampArgs.parse("yesterday"));
  }
}
