package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.logbase.common.Echo;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerStoppingException;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.common.schema.TableSchema;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletSpec;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.logbase.tabletserver.StorageEngine;

/**
 * The tablets this server serves, found by the (table name, tablet id) that requests carry. Also the
 * server's one switch between serving and stopping: once stopped, every request is refused.
 */
final class ServedTablets {
  private final StorageEngine engine;
  private final Map<String, TabletId> byName = new ConcurrentHashMap<>();
  private volatile String stopReason;

  ServedTablets(StorageEngine engine) {
    this.engine = engine;
  }

  /** The tablet a request names; refuses when stopping or when this server does not serve it. */
  Tablet find(TabletRef ref) {
    checkServing();
    TabletId id = byName.get(key(ref.getTable(), ref.getTabletId()));
    Tablet t = id == null ? null : engine.tabletOrNull(id);
    if (t == null) {
      throw new NotServingTabletException(
          "this server does not serve tablet " + ref.getTabletId() + " of table '" + Echo.of(ref.getTable()) + "'");
    }
    return t;
  }

  /** The name of a served table by id, for messages ("#id" if none is served now). */
  String tableName(int tableId) {
    for (Tablet t : engine.tablets()) {
      if (t.descriptor().schema().id() == tableId) {
        return t.descriptor().schema().name();
      }
    }
    return "#" + tableId;
  }

  /** The served tablet of {@code table} holding {@code key}, or null. */
  Tablet findByKey(String table, byte[] key) {
    for (Map.Entry<String, TabletId> e : byName.entrySet()) {
      if (e.getKey().startsWith(table + "/") && e.getKey().lastIndexOf('/') == table.length()) {
        Tablet t = engine.tabletOrNull(e.getValue());
        if (t != null && t.descriptor().contains(key)) {
          return t;
        }
      }
    }
    return null;
  }

  void open(org.logbase.rpc.TableSpec table, TabletSpec spec) throws IOException {
    checkServing();
    TableSchema schema = SchemaProtos.fromProto(table);
    TabletDescriptor d = new TabletDescriptor(schema, spec.getTabletId(), bound(spec.getStartKey()),
        bound(spec.getEndKey()));
    // Prepared transactions the replay finds are locked by the transaction layer before this returns.
    engine.openTablet(d);
    byName.put(key(schema.name(), spec.getTabletId()), d.id());
  }

  void close(String table, int tabletId) throws IOException {
    TabletId id = byName.remove(key(table, tabletId));
    if (id != null) {
      engine.closeTablet(id);
    }
  }

  List<TabletRef> serving() {
    List<TabletRef> out = new ArrayList<>();
    for (String k : byName.keySet()) {
      int slash = k.lastIndexOf('/');
      out.add(TabletRef.newBuilder().setTable(k.substring(0, slash))
          .setTabletId(Integer.parseInt(k.substring(slash + 1))).build());
    }
    return out;
  }

  int count() {
    return byName.size();
  }

  /** From now on every request fails with {@link ServerStoppingException}. */
  void stop(String reason) {
    stopReason = reason;
  }

  boolean isServing() {
    return stopReason == null;
  }

  private void checkServing() {
    String r = stopReason;
    if (r != null) {
      throw new ServerStoppingException("tablet server is stopping: " + r);
    }
  }

  private static byte[] bound(com.google.protobuf.ByteString b) {
    return b.isEmpty() ? null : b.toByteArray();
  }

  private static String key(String table, int tabletId) {
    return table + "/" + tabletId;
  }
}
