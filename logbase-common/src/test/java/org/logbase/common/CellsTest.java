package org.logbase.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Cells} behaves as an unmodifiable {@code TreeMap} of the same cells, the first of each column kept. */
class CellsTest {

  /** Row sizes on both sides of the builder's switch from linear search and insertion sort. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, Cells.Builder.LINEAR - 1, Cells.Builder.LINEAR, Cells.Builder.LINEAR + 1, 40, 300})
  void agreesWithATreeMapOfTheFirstCellOfEachColumn(int columns) {
    Random rnd = new Random(columns * 31L + 7);
    for (int trial = 0; trial < 50; trial++) {
      TreeMap<String, Cell> model = new TreeMap<>();
      Cells.Builder b = Cells.builder(rnd.nextInt(3));
      List<String> names = new ArrayList<>();
      for (int i = 0; i < columns; i++) {
        names.add("c" + rnd.nextInt(columns * 2 + 1));
      }
      for (String n : names) { // repeats included: the first one of a column stays
        Cell c = new Cell(new byte[] {(byte) rnd.nextInt()}, rnd.nextLong());
        assertEquals(!model.containsKey(n), b.addIfAbsent(n, c));
        model.putIfAbsent(n, c);
        assertTrue(b.contains(n));
      }
      assertFalse(b.contains("absent"));
      assertEquals(model.isEmpty(), b.isEmpty());
      Cells cells = b.build();

      assertEquals(model, cells);
      assertEquals(cells, model);
      assertEquals(model.hashCode(), cells.hashCode());
      assertEquals(model.toString(), cells.toString());
      assertEquals(new ArrayList<>(model.keySet()), new ArrayList<>(cells.keySet()));
      assertEquals(new ArrayList<>(model.values()), new ArrayList<>(cells.values()));
      assertEquals(model.size(), cells.size());
      for (int i = 0; i <= columns * 2 + 1; i++) {
        String n = "c" + i;
        assertSame(model.get(n), cells.get(n));
        assertEquals(model.containsKey(n), cells.containsKey(n));
      }
      if (model.isEmpty()) {
        assertThrows(NoSuchElementException.class, cells::firstKey);
        assertThrows(NoSuchElementException.class, cells::lastKey);
      } else {
        assertEquals(model.firstKey(), cells.firstKey());
        assertEquals(model.lastKey(), cells.lastKey());
      }
      String from = "c" + rnd.nextInt(columns + 1);
      String to = "c" + (columns + 1 + rnd.nextInt(columns + 1));
      if (from.compareTo(to) > 0) {
        String t = from;
        from = to;
        to = t;
      }
      assertEquals(model.subMap(from, to), cells.subMap(from, to));
      assertEquals(model.headMap(to), cells.headMap(to));
      assertEquals(model.tailMap(from), cells.tailMap(from));
      assertThrows(IllegalArgumentException.class, () -> cells.subMap("z", "a"));
    }
  }

  @Test
  void nothingChangesIt() {
    Cells.Builder b = Cells.builder(2);
    b.addIfAbsent("b", new Cell(new byte[] {2}, 2));
    b.addIfAbsent("a", new Cell(new byte[] {1}, 1));
    Cells cells = b.build();
    Cell c = new Cell(new byte[0], 0);
    assertThrows(UnsupportedOperationException.class, () -> cells.put("c", c));
    assertThrows(UnsupportedOperationException.class, () -> cells.remove("a"));
    assertThrows(UnsupportedOperationException.class, () -> cells.putAll(Map.of("c", c)));
    assertThrows(UnsupportedOperationException.class, cells::clear);
    assertThrows(UnsupportedOperationException.class, () -> cells.entrySet().iterator().next().setValue(c));
    assertThrows(UnsupportedOperationException.class, () -> cells.entrySet().iterator().remove());
    assertThrows(UnsupportedOperationException.class, () -> cells.keySet().remove("a"));
    assertThrows(UnsupportedOperationException.class, () -> cells.values().clear());
    SortedMap<String, Cell> head = cells.headMap("b");
    assertThrows(UnsupportedOperationException.class, () -> head.put("0", c));
    assertEquals(List.of("a", "b"), new ArrayList<>(cells.keySet()));
  }

  @Test
  void lookupsFailAsATreeMapsDo() {
    Cells cells = Cells.empty();
    assertThrows(NullPointerException.class, () -> cells.get(null));
    assertThrows(NullPointerException.class, () -> cells.containsKey(null));
    assertThrows(NullPointerException.class, () -> Cells.builder(1).addIfAbsent(null, new Cell(new byte[0], 0)));
    assertThrows(NullPointerException.class, () -> Cells.builder(1).addIfAbsent("a", null));
    assertNull(cells.get("a"));
  }

  @Test
  void aBuilderBuildsOnce() {
    Cells.Builder b = Cells.builder(1);
    b.addIfAbsent("a", new Cell(new byte[0], 0));
    b.build();
    assertThrows(IllegalStateException.class, b::build);
    assertThrows(IllegalStateException.class, () -> b.addIfAbsent("b", new Cell(new byte[0], 0)));
    assertThrows(IllegalStateException.class, () -> b.contains("a"));
  }

  @Test
  void aRowKeepsCellsAsTheyAreAndWrapsAnyOtherMap() {
    Cells cells = Cells.builder(0).build();
    assertSame(cells, new Row(new byte[] {1}, cells).cells());
    TreeMap<String, Cell> tree = new TreeMap<>(Map.of("a", new Cell(new byte[0], 0)));
    Row row = new Row(new byte[] {1}, tree);
    assertThrows(UnsupportedOperationException.class, () -> row.cells().put("b", new Cell(new byte[0], 0)));
  }
}
