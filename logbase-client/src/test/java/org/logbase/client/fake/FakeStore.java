package org.logbase.client.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.logbase.common.Bytes;
import org.logbase.common.Cell;
import org.logbase.common.Row;

/** The versioned rows of one table: puts are partial-row versions, deletes are tombstone versions. */
final class FakeStore {
  private record Version(long timestamp, Map<String, byte[]> columns, boolean tombstone) {}

  // Per key, versions newest first.
  private final TreeMap<byte[], List<Version>> rows = new TreeMap<>(Bytes.ORDER);

  synchronized void put(byte[] key, Map<String, byte[]> columns, long timestamp) {
    rows.computeIfAbsent(key, k -> new ArrayList<>()).add(0, new Version(timestamp, Map.copyOf(columns), false));
  }

  synchronized void delete(byte[] key, long timestamp) {
    rows.computeIfAbsent(key, k -> new ArrayList<>()).add(0, new Version(timestamp, Map.of(), true));
  }

  /** The timestamp of the row's newest version (put or delete); 0 if it has none. */
  synchronized long newestTimestamp(byte[] key) {
    List<Version> versions = rows.get(key);
    return versions == null ? 0 : versions.get(0).timestamp();
  }

  /** The row as of {@code asOf}, merging versions newest first; null if no column is visible. */
  synchronized Row get(byte[] key, Set<String> columns, long asOf) {
    List<Version> versions = rows.get(key);
    if (versions == null) {
      return null;
    }
    TreeMap<String, Cell> cells = new TreeMap<>();
    for (Version v : versions) {
      if (v.timestamp() > asOf) {
        continue;
      }
      if (v.tombstone()) {
        break;
      }
      v.columns().forEach((c, value) -> {
        if ((columns.isEmpty() || columns.contains(c)) && !cells.containsKey(c)) {
          cells.put(c, new Cell(value, v.timestamp()));
        }
      });
    }
    return cells.isEmpty() ? null : new Row(key, cells);
  }

  /** Rows with keys in [start, end) (empty = unbounded), at most {@code limit} (0 = all). */
  synchronized List<Row> scan(byte[] start, byte[] end, Set<String> columns, long asOf, int limit) {
    NavigableMap<byte[], List<Version>> range = end.length == 0 ? rows.tailMap(start, true) : rows.subMap(start, true, end, false);
    List<Row> result = new ArrayList<>();
    for (byte[] key : range.keySet()) {
      Row r = get(key, columns, asOf);
      if (r != null) {
        result.add(r);
        if (limit > 0 && result.size() == limit) {
          break;
        }
      }
    }
    return result;
  }
}
