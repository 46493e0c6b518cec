package org.logbase.tablet;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.logbase.common.Bytes;

/**
 * Finds the tablet whose key range holds a (table id, row key): how records are routed to indexes,
 * by where their key falls now rather than by the tablet that wrote them, so that records written
 * before a split reach the right daughter. Immutable once built.
 *
 * @param <T> what is found (a tablet's indexes, a registry entry)
 */
public final class KeyRanges<T> {
  private static final byte[] LOWEST = new byte[0];

  private final Map<Integer, NavigableMap<byte[], Range<T>>> byTable = new HashMap<>();

  private record Range<T>(TabletDescriptor tablet, T value) {}

  /** Builds the lookup; tablets of one table must not overlap. */
  public KeyRanges(Map<TabletDescriptor, T> tablets) {
    for (Map.Entry<TabletDescriptor, T> e : tablets.entrySet()) {
      TabletDescriptor d = e.getKey();
      byte[] start = d.startKey() == null ? LOWEST : d.startKey();
      Range<T> previous = byTable.computeIfAbsent(d.schema().id(), t -> new TreeMap<>(Bytes::compare))
          .put(start, new Range<>(d, e.getValue()));
      if (previous != null) {
        throw new IllegalArgumentException("tablets " + previous.tablet() + " and " + d + " overlap");
      }
    }
  }

  /** What belongs to the tablet of table {@code tableId} holding {@code key}, or null if none is here. */
  public T find(int tableId, byte[] key) {
    NavigableMap<byte[], Range<T>> ranges = byTable.get(tableId);
    if (ranges == null) {
      return null;
    }
    Map.Entry<byte[], Range<T>> e = ranges.floorEntry(key);
    return e != null && e.getValue().tablet().contains(key) ? e.getValue().value() : null;
  }
}
