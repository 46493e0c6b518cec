package org.logbase.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Comparisons of index results that report keys readably. */
final class IndexAssertions {

  private IndexAssertions() {}

  static String hex(byte[] key) {
    return key == null ? "null" : "[" + HexFormat.of().formatHex(key) + "]";
  }

  static String describe(IndexEntry e) {
    return e == null ? "null" : hex(e.key()) + "@" + e.timestamp() + "->" + e.pointer() + "/" + e.meta();
  }

  static List<IndexEntry> drain(IndexCursor cursor) {
    List<IndexEntry> out = new ArrayList<>();
    while (cursor.next()) {
      out.add(new IndexEntry(cursor.key(), cursor.timestamp(), cursor.pointer(), cursor.meta()));
    }
    return out;
  }

  static void assertEntryEquals(IndexEntry expected, IndexEntry actual, String context) {
    if (expected == null) {
      assertNull(actual, () -> context + ": expected nothing, got " + describe(actual));
      return;
    }
    assertNotNull(actual, () -> context + ": expected " + describe(expected) + ", got null");
    assertEquals(describe(expected), describe(actual), context);
  }

  static void assertEntriesEqual(List<IndexEntry> expected, List<IndexEntry> actual, String context) {
    int n = Math.min(expected.size(), actual.size());
    for (int i = 0; i < n; i++) {
      assertEntryEquals(expected.get(i), actual.get(i), context + " entry " + i);
    }
    assertEquals(expected.size(), actual.size(), context + ": entry count");
  }

  static void assertSameContent(ReferenceIndex model, MultiVersionIndex tree, String context) {
    assertEntriesEqual(model.all(), drain(tree.range(null, null)), context + " full scan");
    assertEquals(model.size(), tree.size(), context + " size");
  }

  static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }
}
