package org.logbase.client;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.logbase.common.Bytes;

/** The tablets of one table in key order, as the master last reported them; immutable. */
final class TableLocations {
  // Unbounded (empty) start keys sort first: an empty array is the smallest byte string.
  private static final Comparator<TabletInfo> BY_START = Comparator.comparing(TabletInfo::startKey, Bytes.ORDER);

  private final String table;
  private final List<TabletInfo> tablets;

  TableLocations(String table, List<TabletInfo> tablets) {
    this.table = table;
    List<TabletInfo> sorted = new ArrayList<>(tablets);
    sorted.sort(BY_START);
    this.tablets = List.copyOf(sorted);
  }

  String table() {
    return table;
  }

  List<TabletInfo> tablets() {
    return tablets;
  }

  /** The tablet whose range holds {@code key}, or null when the tablets known leave a gap there. */
  TabletInfo find(byte[] key) {
    int i = lastStartingAtOrBefore(key);
    if (i < 0) {
      return null;
    }
    TabletInfo t = tablets.get(i);
    return t.contains(key) ? t : null;
  }

  /** The tablets overlapping [start, end), in key order; an empty bound is unbounded. */
  List<TabletInfo> overlapping(byte[] start, byte[] end) {
    int from = Math.max(0, lastStartingAtOrBefore(start));
    List<TabletInfo> result = new ArrayList<>();
    for (int i = from; i < tablets.size(); i++) {
      TabletInfo t = tablets.get(i);
      if (end.length > 0 && t.startKey().length > 0 && Bytes.compare(t.startKey(), end) >= 0) {
        break;
      }
      if (t.endKey().length == 0 || Bytes.compare(t.endKey(), start) > 0) {
        result.add(t);
      }
    }
    return result;
  }

  /** Binary search: index of the last tablet whose start key is <= key, -1 if none. */
  private int lastStartingAtOrBefore(byte[] key) {
    int lo = 0;
    int hi = tablets.size() - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compare(tablets.get(mid).startKey(), key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}
