package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TabletPlacementTest {
  @Test
  void fillsTheLeastLoadedServersFirstTiesByName() {
    assertEquals(List.of("a", "b", "c", "a"), TabletPlacement.place(4, List.of("c", "a", "b"), Map.of()));
    assertEquals(List.of("c", "c", "b"),
        TabletPlacement.place(3, List.of("a", "b", "c"), Map.of("a", 3, "b", 2, "c", 0)));
  }

  @Test
  void countsOnlyTheServersOffered() {
    // A dead server's tablets ("d") do not matter; live servers without tablets come first.
    assertEquals(List.of("b", "a"), TabletPlacement.place(2, List.of("a", "b"), Map.of("a", 1, "d", 0)));
  }

  @Test
  void needsAServer() {
    assertThrows(IllegalArgumentException.class, () -> TabletPlacement.place(1, List.of(), Map.of()));
  }
}
