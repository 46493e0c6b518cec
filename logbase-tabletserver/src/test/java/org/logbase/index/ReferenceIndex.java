package org.logbase.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A deliberately simple model of {@link MultiVersionIndex} on a {@link TreeMap}, with its own
 * byte-by-byte comparator so that it does not share code (or bugs) with the tree.
 */
final class ReferenceIndex {

  /** One version of one key. */
  record Version(byte[] key, long ts) {}

  /** (key unsigned ascending, ts descending), written out by hand. */
  static int compare(byte[] a, long aTs, byte[] b, long bTs) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int x = a[i] & 0xff;
      int y = b[i] & 0xff;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    if (a.length != b.length) {
      return a.length < b.length ? -1 : 1;
    }
    return aTs == bTs ? 0 : (aTs > bTs ? -1 : 1);
  }

  private final NavigableMap<Version, long[]> map =
      new TreeMap<>((p, q) -> compare(p.key(), p.ts(), q.key(), q.ts()));

  void put(byte[] key, long ts, long pointer, int meta) {
    map.put(new Version(key.clone(), ts), new long[] {pointer, meta});
  }

  long size() {
    return map.size();
  }

  IndexEntry floor(byte[] key, long maxTs) {
    Map.Entry<Version, long[]> e = map.ceilingEntry(new Version(key, maxTs));
    if (e == null || compare(e.getKey().key(), 0, key, 0) != 0) {
      return null;
    }
    return toEntry(e);
  }

  List<IndexEntry> versions(byte[] key, long maxTs) {
    List<IndexEntry> out = new ArrayList<>();
    for (Map.Entry<Version, long[]> e : map.tailMap(new Version(key, maxTs), true).entrySet()) {
      if (compare(e.getKey().key(), 0, key, 0) != 0) {
        break;
      }
      out.add(toEntry(e));
    }
    return out;
  }

  List<IndexEntry> range(byte[] start, byte[] end) {
    NavigableMap<Version, long[]> view = map;
    if (start != null) {
      view = view.tailMap(new Version(start, Long.MAX_VALUE), true);
    }
    List<IndexEntry> out = new ArrayList<>();
    for (Map.Entry<Version, long[]> e : view.entrySet()) {
      if (end != null && compare(e.getKey().key(), 0, end, 0) >= 0) {
        break;
      }
      out.add(toEntry(e));
    }
    return out;
  }

  List<IndexEntry> all() {
    return range(null, null);
  }

  private static IndexEntry toEntry(Map.Entry<Version, long[]> e) {
    return new IndexEntry(e.getKey().key(), e.getKey().ts(), e.getValue()[0], (int) e.getValue()[1]);
  }
}
