package org.logbase.common;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A row's cells by column name: an immutable sorted map over two arrays, made by a {@link Builder}.
 * A scan makes one per row, and most rows hold one or a few columns, where a {@code TreeMap} and an
 * unmodifiable wrapper were 17% of a full scan's CPU samples. Lookups are binary searches; {@link
 * #subMap}, {@link #headMap} and {@link #tailMap} are rare and return unmodifiable views of a copy. Every mutator throws {@link UnsupportedOperationException}.
 */
public final class Cells extends AbstractMap<String, Cell> implements SortedMap<String, Cell> {
  private static final Cells EMPTY = new Cells(new String[0], new Cell[0]);

  private final String[] names; // ascending, distinct
  private final Cell[] cells; // cells[i] is names[i]'s

  private Cells(String[] names, Cell[] cells) {
    this.names = names;
    this.cells = cells;
  }

  /** A map with no cell. */
  public static Cells empty() {
    return EMPTY;
  }

  /**
   * A new builder, sized for {@code expected} cells but at most {@value Builder#MAX_INITIAL} (it
   * grows past that): a scan asking for every column of a wide schema gets rows holding few.
   */
  public static Builder builder(int expected) {
    return new Builder(expected);
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public boolean isEmpty() {
    return names.length == 0;
  }

  @Override
  public Cell get(Object column) {
    int i = indexOf(column);
    return i < 0 ? null : cells[i];
  }

  @Override
  public boolean containsKey(Object column) {
    return indexOf(column) >= 0;
  }

  /** As a {@code TreeMap}: a null column throws NullPointerException, a non-string ClassCastException. */
  private int indexOf(Object column) {
    String c = (String) column;
    if (c == null) {
      throw new NullPointerException("a column name is never null");
    }
    return Arrays.binarySearch(names, c);
  }

  @Override
  public Comparator<? super String> comparator() {
    return null;
  }

  @Override
  public String firstKey() {
    if (names.length == 0) {
      throw new NoSuchElementException("no cell");
    }
    return names[0];
  }

  @Override
  public String lastKey() {
    if (names.length == 0) {
      throw new NoSuchElementException("no cell");
    }
    return names[names.length - 1];
  }

  @Override
  public SortedMap<String, Cell> subMap(String fromKey, String toKey) {
    return copy().subMap(fromKey, toKey);
  }

  @Override
  public SortedMap<String, Cell> headMap(String toKey) {
    return copy().headMap(toKey);
  }

  @Override
  public SortedMap<String, Cell> tailMap(String fromKey) {
    return copy().tailMap(fromKey);
  }

  private SortedMap<String, Cell> copy() {
    return Collections.unmodifiableSortedMap(new TreeMap<>(this));
  }

  @Override
  public Set<Map.Entry<String, Cell>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return names.length;
      }

      @Override
      public Iterator<Map.Entry<String, Cell>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < names.length;
          }

          @Override
          public Map.Entry<String, Cell> next() {
            if (next >= names.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(names[i], cells[i]);
          }
        };
      }
    };
  }

  @Override
  public Cell put(String column, Cell cell) {
    throw new UnsupportedOperationException("a row's cells are immutable");
  }

  @Override
  public Cell remove(Object column) {
    throw new UnsupportedOperationException("a row's cells are immutable");
  }

  @Override
  public void putAll(Map<? extends String, ? extends Cell> m) {
    throw new UnsupportedOperationException("a row's cells are immutable");
  }

  @Override
  public void clear() {
    throw new UnsupportedOperationException("a row's cells are immutable");
  }

  /**
   * Collects cells in any order, the first one of each column kept; {@link #build} sorts them. Up to
   * {@value #LINEAR} cells a column is looked for by a linear pass and sorted by insertion, as most
   * rows hold few; past that through a hash set and a merge sort. Not thread-safe.
   */
  public static final class Builder {
    static final int LINEAR = 32;
    static final int MAX_INITIAL = 16;

    private String[] names;
    private Cell[] cells;
    private int size;
    private Set<String> seen; // past LINEAR cells: every name added

    private Builder(int expected) {
      int n = Math.max(1, Math.min(expected, MAX_INITIAL));
      names = new String[n];
      cells = new Cell[n];
    }

    /** Whether a cell of {@code column} was added. */
    public boolean contains(String column) {
      checkOpen();
      if (seen != null) {
        return seen.contains(column);
      }
      for (int i = 0; i < size; i++) {
        if (names[i].equals(column)) {
          return true;
        }
      }
      return false;
    }

    /**
     * Adds {@code column}'s cell unless the builder holds one already.
     *
     * @return whether it was added
     */
    public boolean addIfAbsent(String column, Cell cell) {
      if (column == null || cell == null) {
        throw new NullPointerException("a cell needs a column name and a value");
      }
      if (contains(column)) {
        return false;
      }
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        cells = Arrays.copyOf(cells, size * 2);
      }
      names[size] = column;
      cells[size] = cell;
      size++;
      if (seen != null) {
        seen.add(column);
      } else if (size > LINEAR) {
        seen = new HashSet<>(Arrays.asList(names).subList(0, size));
      }
      return true;
    }

    public boolean isEmpty() {
      return size == 0;
    }

    /** The cells added, sorted by column; the builder may be used no further. */
    public Cells build() {
      checkOpen();
      if (size == 0) {
        names = null;
        return EMPTY;
      }
      String[] n = size == names.length ? names : Arrays.copyOf(names, size);
      Cell[] c = size == cells.length ? cells : Arrays.copyOf(cells, size);
      names = null;
      cells = null;
      seen = null;
      if (size <= LINEAR) {
        insertionSort(n, c);
        return new Cells(n, c);
      }
      Integer[] order = new Integer[size];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.comparing(i -> n[i]));
      String[] sn = new String[size];
      Cell[] sc = new Cell[size];
      for (int i = 0; i < size; i++) {
        sn[i] = n[order[i]];
        sc[i] = c[order[i]];
      }
      return new Cells(sn, sc);
    }

    private void checkOpen() {
      if (names == null) {
        throw new IllegalStateException("the builder has built its cells already");
      }
    }

    /** Insertion sort of both arrays by name: rows hold few columns, often already in order. */
    private static void insertionSort(String[] n, Cell[] c) {
      for (int i = 1; i < n.length; i++) {
        String name = n[i];
        Cell cell = c[i];
        int j = i - 1;
        while (j >= 0 && n[j].compareTo(name) > 0) {
          n[j + 1] = n[j];
          c[j + 1] = c[j];
          j--;
        }
        n[j + 1] = name;
        c[j + 1] = cell;
      }
    }
  }
}
