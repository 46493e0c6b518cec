package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;

class TableLocationsTest {
  private static final byte[] NONE = new byte[0];

  private static TabletInfo tablet(int id, String start, String end) {
    return new TabletInfo(id, Bytes.utf8(start), Bytes.utf8(end), "ts-" + id, "127.0.0.1:" + (1000 + id));
  }

  // Given out of order: the cache sorts by start key.
  private final TableLocations locs = new TableLocations("t",
      List.of(tablet(3, "p", ""), tablet(1, "", "g"), tablet(2, "g", "p")));

  @Test
  void findsTheTabletHoldingAKeyIncludingUnboundedEnds() {
    assertEquals(1, locs.find(NONE).tabletId());
    assertEquals(1, locs.find(Bytes.utf8("a")).tabletId());
    assertEquals(2, locs.find(Bytes.utf8("g")).tabletId());
    assertEquals(2, locs.find(Bytes.utf8("ozzz")).tabletId());
    assertEquals(3, locs.find(Bytes.utf8("p")).tabletId());
    assertEquals(3, locs.find(new byte[] {(byte) 0xff, 0}).tabletId());
  }

  @Test
  void reportsAGapAsNoTablet() {
    TableLocations gappy = new TableLocations("t", List.of(tablet(1, "", "g"), tablet(3, "p", "")));
    assertNull(gappy.find(Bytes.utf8("h")));
  }

  @Test
  void listsTheTabletsOverlappingARange() {
    assertEquals(List.of(1, 2, 3), ids(locs.overlapping(NONE, NONE)));
    assertEquals(List.of(2), ids(locs.overlapping(Bytes.utf8("g"), Bytes.utf8("p"))));
    assertEquals(List.of(1, 2), ids(locs.overlapping(Bytes.utf8("b"), Bytes.utf8("h"))));
    assertEquals(List.of(2, 3), ids(locs.overlapping(Bytes.utf8("h"), NONE)));
  }

  private static List<Integer> ids(List<TabletInfo> tablets) {
    return tablets.stream().map(TabletInfo::tabletId).toList();
  }
}
