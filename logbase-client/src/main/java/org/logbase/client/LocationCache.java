package org.logbase.client;

import io.grpc.Deadline;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.logbase.rpc.TableName;

/**
 * Tablet locations per table, fetched from the master on first use and again after a caller found
 * them stale. Invalidation names the stale copy, so that many requests failing on the same move
 * cause one refresh, not one each.
 */
final class LocationCache {
  private final ConcurrentMap<String, TableLocations> tables = new ConcurrentHashMap<>();
  private final MasterRpc master;

  LocationCache(MasterRpc master) {
    this.master = master;
  }

  TableLocations get(String table, Deadline deadline) {
    TableLocations cached = tables.get(table);
    if (cached != null) {
      return cached;
    }
    // Not computeIfAbsent: that would hold a map lock across an RPC. Concurrent first lookups of
    // one table may both ask the master; both answers are valid.
    TableLocations fresh = new TableLocations(table, Protos.tablets(master.call("locate tablets of '" + table + "'",
        deadline, stub -> stub.getTabletLocations(TableName.newBuilder().setName(table).build()))));
    TableLocations raced = tables.putIfAbsent(table, fresh);
    return raced != null ? raced : fresh;
  }

  /** Drops {@code stale} unless it was replaced already. */
  void invalidate(TableLocations stale) {
    tables.remove(stale.table(), stale);
  }

  /** Drops whatever is cached for {@code table} (it was created, dropped or altered). */
  void forget(String table) {
    tables.remove(table);
  }

  /** Drops the cached tables with a tablet at {@code address} (a server not reached: dead, cut off, too slow). */
  void forgetServer(String address) {
    tables.values().removeIf(l -> l.tablets().stream().anyMatch(t -> address.equals(t.address())));
  }

  /** Drops every cached table (a request met a tablet that moved, table unknown). */
  void forgetAll() {
    tables.clear();
  }
}
