package org.logbase.bench.index;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.logbase.index.IndexCursor;
import org.logbase.index.IndexEntry;
import org.logbase.index.MultiVersionIndex;

/**
 * The baseline: the multiversion index built the natural way on a
 * {@code ConcurrentSkipListMap<VersionedKey, IndexValue>}, so benchmarks drive both structures
 * through the same interface.
 */
final class SkipListIndex implements MultiVersionIndex {

  private final ConcurrentSkipListMap<VersionedKey, IndexValue> map = new ConcurrentSkipListMap<>();

  @Override
  public void put(byte[] key, long timestamp, long pointer, int meta) {
    map.put(new VersionedKey(key, timestamp), new IndexValue(pointer, meta));
  }

  @Override
  public IndexEntry floor(byte[] key, long maxTimestamp) {
    Map.Entry<VersionedKey, IndexValue> e = map.ceilingEntry(new VersionedKey(key, maxTimestamp));
    if (e == null || !Arrays.equals(e.getKey().row, key)) {
      return null;
    }
    return new IndexEntry(e.getKey().row, e.getKey().timestamp, e.getValue().pointer, e.getValue().meta);
  }

  @Override
  public IndexCursor versions(byte[] key, long maxTimestamp) {
    VersionedKey from = new VersionedKey(key, maxTimestamp);
    VersionedKey to = new VersionedKey(Arrays.copyOf(key, key.length + 1), Long.MAX_VALUE);
    return new MapCursor(map.subMap(from, true, to, false));
  }

  @Override
  public IndexCursor range(byte[] startInclusive, byte[] endExclusive) {
    NavigableMap<VersionedKey, IndexValue> view = map;
    if (startInclusive != null) {
      view = view.tailMap(new VersionedKey(startInclusive, Long.MAX_VALUE), true);
    }
    if (endExclusive != null) {
      view = view.headMap(new VersionedKey(endExclusive, Long.MAX_VALUE), false);
    }
    return new MapCursor(view);
  }

  @Override
  public long size() {
    return map.size();
  }

  private static final class MapCursor implements IndexCursor {
    private final Iterator<Map.Entry<VersionedKey, IndexValue>> entries;
    private Map.Entry<VersionedKey, IndexValue> current;

    MapCursor(NavigableMap<VersionedKey, IndexValue> view) {
      this.entries = view.entrySet().iterator();
    }

    @Override
    public boolean next() {
      current = entries.hasNext() ? entries.next() : null;
      return current != null;
    }

    @Override
    public byte[] key() {
      return current.getKey().row.clone();
    }

    @Override
    public long timestamp() {
      return current.getKey().timestamp;
    }

    @Override
    public long pointer() {
      return current.getValue().pointer;
    }

    @Override
    public int meta() {
      return current.getValue().meta;
    }
  }
}
