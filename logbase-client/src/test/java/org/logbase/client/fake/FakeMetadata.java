package org.logbase.client.fake;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.logbase.common.Bytes;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.TableExistsException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.common.schema.TableSchema;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletSpec;

/**
 * What the fake cluster knows, shared by its masters and tablet servers: tables with their tablets
 * and assignment, the servers' and masters' addresses, each table's rows, and a timestamp clock.
 */
public final class FakeMetadata {
  private final Map<String, TableMeta> tables = new TreeMap<>();
  private final Map<String, FakeStore> stores = new HashMap<>();
  private final Map<String, String> serverAddresses = new LinkedHashMap<>();
  private final List<String> masterAddresses = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong();
  private int nextTableId = 1;
  private int nextTabletId = 1;

  synchronized void addServer(String id, String address) {
    serverAddresses.put(id, address);
  }

  synchronized void addMaster(String address) {
    masterAddresses.add(address);
  }

  synchronized Map<String, String> servers() {
    return new LinkedHashMap<>(serverAddresses);
  }

  synchronized List<String> masters() {
    return List.copyOf(masterAddresses);
  }

  /** Creates a table: one tablet per split range, assigned to the servers in turn. */
  synchronized TableMeta create(TableSpec requested, List<ByteString> splitKeys) {
    if (tables.containsKey(requested.getName())) {
      throw new TableExistsException("table '" + requested.getName() + "' already exists");
    }
    TableSpec.Builder spec = TableSpec.newBuilder().setName(requested.getName()).setId(nextTableId++);
    for (int g = 0; g < requested.getColumnGroupsCount(); g++) {
      spec.addColumnGroups(requested.getColumnGroups(g).toBuilder().setId(g));
    }
    SchemaProtos.fromProto(spec.build()); // validates names and columns
    List<byte[]> splits = new ArrayList<>();
    splitKeys.forEach(k -> splits.add(k.toByteArray()));
    splits.sort(Bytes.ORDER);
    List<String> serverIds = new ArrayList<>(serverAddresses.keySet());
    TableMeta.Builder meta = TableMeta.newBuilder().setSpec(spec).setNextColumnGroupId(spec.getColumnGroupsCount());
    for (int i = 0; i <= splits.size(); i++) {
      TabletSpec tablet = TabletSpec.newBuilder()
          .setTabletId(nextTabletId++)
          .setStartKey(i == 0 ? ByteString.EMPTY : ByteString.copyFrom(splits.get(i - 1)))
          .setEndKey(i == splits.size() ? ByteString.EMPTY : ByteString.copyFrom(splits.get(i)))
          .build();
      meta.addTablets(TabletLocation.newBuilder().setTablet(tablet).setServerId(serverIds.get(i % serverIds.size())));
    }
    tables.put(requested.getName(), meta.build());
    stores.put(requested.getName(), new FakeStore());
    return table(requested.getName());
  }

  /** The table with each tablet's current server address filled in. */
  synchronized TableMeta table(String name) {
    TableMeta meta = tables.get(name);
    if (meta == null) {
      throw new TableNotFoundException("table '" + name + "' does not exist");
    }
    TableMeta.Builder b = meta.toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      t.setAddress(serverAddresses.getOrDefault(t.getServerId(), ""));
    }
    return b.build();
  }

  synchronized TableSchema schema(String name) {
    return SchemaProtos.fromProto(table(name).getSpec());
  }

  synchronized List<String> tableNames() {
    return List.copyOf(tables.keySet());
  }

  synchronized void drop(String name) {
    table(name);
    tables.remove(name);
    stores.remove(name);
  }

  synchronized TableMeta addColumnGroup(String name, ColumnGroupSpec group) {
    TableMeta meta = table(name);
    TableSpec spec = meta.getSpec().toBuilder()
        .addColumnGroups(group.toBuilder().setId(meta.getNextColumnGroupId()))
        .build();
    SchemaProtos.fromProto(spec); // validates
    tables.put(name, meta.toBuilder().setSpec(spec).setNextColumnGroupId(meta.getNextColumnGroupId() + 1).build());
    return table(name);
  }

  /** Changes a group's policy as a master does: the fields set, each checked by {@link StoragePolicy}. */
  synchronized TableMeta alterColumnGroup(AlterColumnGroupRequest r) {
    TableMeta meta = table(r.getTable());
    TableSpec.Builder spec = meta.getSpec().toBuilder();
    for (int i = 0; i < spec.getColumnGroupsCount(); i++) {
      ColumnGroup g = SchemaProtos.fromProto(spec.getColumnGroups(i));
      if (g.name().equals(r.getColumnGroup())) {
        StoragePolicy p = g.policy();
        try {
          p = r.hasMaxVersions() ? p.withMaxVersions(r.getMaxVersions()) : p;
          p = r.hasTtlMs() ? p.withTtlMs(r.getTtlMs()) : p;
          p = r.hasCompression() ? p.withCompression(StoragePolicy.BlockCompression.parse(r.getCompression())) : p;
        } catch (IllegalArgumentException e) {
          throw new InvalidRequestException(e.getMessage());
        }
        spec.setColumnGroups(i, SchemaProtos.toProto(g.withPolicy(p)));
        tables.put(r.getTable(), meta.toBuilder().setSpec(spec).build());
        return table(r.getTable());
      }
    }
    throw new InvalidRequestException("table '" + r.getTable() + "' has no column group '" + r.getColumnGroup() + "'");
  }

  synchronized FakeStore store(String name) {
    table(name);
    return stores.get(name);
  }

  /** The tablet {@code tabletId} of a table, or null. */
  synchronized TabletLocation tablet(String table, int tabletId) {
    for (TabletLocation t : table(table).getTabletsList()) {
      if (t.getTablet().getTabletId() == tabletId) {
        return t;
      }
    }
    return null;
  }

  /** Reassigns a tablet, as a master does when it balances load. */
  synchronized void move(String table, int tabletId, String serverId) {
    TableMeta.Builder b = tables.get(table).toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == tabletId) {
        t.setServerId(serverId);
      }
    }
    tables.put(table, b.build());
  }

  /** "table/tabletId" of every tablet assigned to {@code serverId}. */
  synchronized List<String> tabletsOf(String serverId) {
    List<String> result = new ArrayList<>();
    tables.forEach((name, meta) -> meta.getTabletsList().stream()
        .filter(t -> t.getServerId().equals(serverId))
        .forEach(t -> result.add(name + "/" + t.getTablet().getTabletId())));
    return result;
  }

  /** A commit timestamp: hybrid, strictly increasing. */
  long nextTimestamp() {
    return nextTimestamps(1);
  }

  /** The first of {@code count} consecutive timestamps, all above every one handed out before. */
  long nextTimestamps(int count) {
    long now = HybridTimestamp.of(System.currentTimeMillis(), 0);
    return clock.updateAndGet(prev -> Math.max(prev + count, now + count - 1)) - count + 1;
  }
}
