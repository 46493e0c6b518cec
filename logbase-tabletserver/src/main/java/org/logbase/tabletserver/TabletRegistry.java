package org.logbase.tabletserver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.logbase.common.Bytes;
import org.logbase.common.Echo;
import org.logbase.common.InvalidRequestException;
import org.logbase.tablet.GroupIndex;
import org.logbase.tablet.KeyRanges;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;

/**
 * The tablets a server has open: the one place where the log's applier (routing durable records to
 * indexes), the checkpointer, the transaction layer and the RPC services find a tablet. The set is
 * published as an immutable {@link Snapshot}; opening, closing or growing tablets replaces it in one
 * step, so a reader holding a snapshot sees one consistent set and nothing is kept in a second map
 * that could disagree. Only the storage engine changes it.
 */
public final class TabletRegistry {
  private static final Comparator<byte[]> KEYS = Bytes::compare;
  private static final byte[] LOWEST = new byte[0];

  /** An open tablet: its read/write face and its indexes by column-group id (null where no group). */
  public record Entry(Tablet tablet, GroupIndex[] groups) {
    public Entry {
      Objects.requireNonNull(tablet, "tablet");
      Objects.requireNonNull(groups, "groups");
    }

    public TabletId id() {
      return tablet.descriptor().id();
    }

    /** The indexes of its column groups. */
    public List<GroupIndex> groupIndexes() {
      List<GroupIndex> out = new ArrayList<>();
      for (GroupIndex g : groups) {
        if (g != null) {
          out.add(g);
        }
      }
      return out;
    }
  }

  /** How requests name a tablet: the table's name and the tablet's id. */
  private record Name(String table, int tabletId) {}

  /** One consistent set of open tablets. */
  public static final class Snapshot {
    private final Map<TabletId, Entry> byId;
    private final Map<Name, Entry> byName = new HashMap<>();
    private final Map<String, NavigableMap<byte[], Entry>> byTableAndStart = new HashMap<>();
    private final KeyRanges<GroupIndex[]> ranges;

    private Snapshot(Map<TabletId, Entry> byId) {
      this.byId = Map.copyOf(byId);
      Map<TabletDescriptor, GroupIndex[]> groups = new HashMap<>();
      for (Entry e : byId.values()) {
        groups.put(e.tablet().descriptor(), e.groups());
        String table = e.tablet().descriptor().schema().name();
        byte[] start = e.tablet().descriptor().startKey();
        byName.put(new Name(table, e.id().tabletId()), e);
        byTableAndStart.computeIfAbsent(table, t -> new TreeMap<>(KEYS)).put(start == null ? LOWEST : start, e);
      }
      this.ranges = new KeyRanges<>(groups);
    }

    /** The entry of a tablet, or null if it is not open. */
    public Entry get(TabletId id) {
      return byId.get(id);
    }

    /**
     * The indexes of the open tablet of table {@code tableId} whose range holds {@code key}, or null:
     * how the applier routes a record.
     */
    public GroupIndex[] groups(int tableId, byte[] key) {
      return ranges.find(tableId, key);
    }

    /** The open tablet {@code tabletId} of the table named {@code table}, or null. */
    public Tablet find(String table, int tabletId) {
      Entry e = byName.get(new Name(table, tabletId));
      return e == null ? null : e.tablet();
    }

    /** The open tablet of the table named {@code table} whose key range holds {@code key}, or null. */
    public Tablet findByKey(String table, byte[] key) {
      NavigableMap<byte[], Entry> tablets = byTableAndStart.get(table);
      if (tablets == null) {
        return null;
      }
      Map.Entry<byte[], Entry> e = tablets.floorEntry(key);
      return e != null && e.getValue().tablet().descriptor().contains(key) ? e.getValue().tablet() : null;
    }

    /** The name of an open table by id, or null if none of its tablets is open. */
    public String tableName(int tableId) {
      for (Entry e : byId.values()) {
        if (e.id().tableId() == tableId) {
          return e.tablet().descriptor().schema().name();
        }
      }
      return null;
    }

    /** Every open tablet, by table id and tablet id. */
    public List<Entry> entries() {
      List<Entry> out = new ArrayList<>(byId.values());
      out.sort(Comparator.comparingInt((Entry e) -> e.id().tableId()).thenComparingInt(e -> e.id().tabletId()));
      return out;
    }

    /** The indexes of every open tablet. */
    public List<GroupIndex> groupIndexes() {
      List<GroupIndex> out = new ArrayList<>();
      byId.values().forEach(e -> out.addAll(e.groupIndexes()));
      return out;
    }

    public int size() {
      return byId.size();
    }

    /**
     * Throws {@link InvalidRequestException} if these tablets would overlap each other or open ones,
     * or share a table name with open ones (or each other) under another table id.
     */
    public void checkCanOpen(Collection<TabletDescriptor> more) {
      // One table of a name at a time: requests name tablets by table name, so a tablet of an
      // earlier table of that name (dropped, its close failed) would answer for the new one's.
      Map<String, Integer> tableIds = new HashMap<>();
      byId.values().forEach(e -> tableIds.put(e.tablet().descriptor().schema().name(), e.id().tableId()));
      for (TabletDescriptor d : more) {
        int other = tableIds.merge(d.schema().name(), d.schema().id(), (open, asked) -> open);
        if (other != d.schema().id()) {
          throw new InvalidRequestException("cannot open tablet " + d.tabletId() + " of table '"
              + Echo.of(d.schema().name()) + "' (id " + d.schema().id() + "): tablets of table id " + other
              + " of that name are served or being opened here; " + (other < d.schema().id()
              ? "that table was dropped, and the master closes them first" : "this open is of a dropped table"));
        }
      }
      Map<TabletDescriptor, Boolean> all = new HashMap<>();
      byId.values().forEach(e -> all.put(e.tablet().descriptor(), true));
      more.forEach(d -> all.put(d, true));
      try {
        new KeyRanges<>(all);
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException("cannot open: " + e.getMessage());
      }
    }
  }

  private volatile Snapshot current = new Snapshot(Map.of());

  /** The open tablets now. */
  public Snapshot snapshot() {
    return current;
  }

  /** Adds or replaces entries, all in one step. */
  synchronized void putAll(Collection<Entry> entries) {
    Map<TabletId, Entry> next = new HashMap<>(current.byId);
    for (Entry e : entries) {
      next.put(e.id(), e);
    }
    current = new Snapshot(next);
  }

  /** Removes a tablet; returns its entry, or null if it was not open. */
  synchronized Entry remove(TabletId id) {
    Entry e = current.byId.get(id);
    if (e != null) {
      Map<TabletId, Entry> next = new HashMap<>(current.byId);
      next.remove(id);
      current = new Snapshot(next);
    }
    return e;
  }
}
