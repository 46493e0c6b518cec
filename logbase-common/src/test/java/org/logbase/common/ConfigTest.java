package org.logbase.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConfigTest {
  @Test
  void parsesByteSizesWithSuffixes() {
    Config c = Config.empty().with("a", "64m").with("b", "4096").with("c", "1g").with("d", "16KB");
    assertEquals(64L << 20, c.getBytes("a", 0));
    assertEquals(4096, c.getBytes("b", 0));
    assertEquals(1L << 30, c.getBytes("c", 0));
    assertEquals(16L << 10, c.getBytes("d", 0));
    assertEquals(7, c.getBytes("missing", 7));
  }

  @Test
  void badValuesNameTheKey() {
    Config c = Config.empty().with("log.segment.bytes", "lots").with("flag", "yes");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> c.getBytes("log.segment.bytes", 1));
    assertTrue(e.getMessage().contains("log.segment.bytes=lots"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> c.getBoolean("flag", false));
    assertThrows(IllegalArgumentException.class, () -> c.getLong("log.segment.bytes", 1));
  }

  @Test
  void hybridTimestampsOrderByWallClockThenCounter() {
    long a = HybridTimestamp.of(1000, 5);
    long b = HybridTimestamp.of(1000, 6);
    long c = HybridTimestamp.of(1001, 0);
    assertTrue(a < b && b < c);
    assertEquals(1000, HybridTimestamp.wallMillis(b));
    assertEquals(6, HybridTimestamp.logical(b));
  }
}
