package org.logbase.tabletserver.server;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.Echo;
import org.logbase.common.ZkPaths;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.logbase.tablet.TabletDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tablet assignments as the master records them in ZooKeeper ({@link ZkPaths#table}): an open
 * is carried out only if the table's metadata, read after a sync, gives the tablet to this server
 * at the assignment the open names, with the column groups the table has now. The master writes an
 * assignment (and a schema) before it sends the open, so a current open always passes; one that
 * the metadata has moved past is stale, however it got here (a call held by a channel while this
 * server restarted, a deposed master's, a reconciler's open from before an alter).
 */
final class ZooKeeperAssignments implements TabletOpener.Assignments {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperAssignments.class);

  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final String serverId;

  ZooKeeperAssignments(CuratorFramework zk, ZkPaths paths, String serverId) {
    this.zk = zk;
    this.paths = paths;
    this.serverId = serverId;
  }

  /** One table's metadata as the check needs it: parsed once per batch, its tablets by id. */
  private record Table(int id, List<ColumnGroup> groups, Map<Integer, TabletLocation> tablets) {
    static Table of(TableMeta meta) {
      Map<Integer, TabletLocation> tablets = new HashMap<>();
      meta.getTabletsList().forEach(t -> tablets.put(t.getTablet().getTabletId(), t));
      return new Table(meta.getSpec().getId(), SchemaProtos.fromProto(meta.getSpec()).columnGroups(), tablets);
    }
  }

  @Override
  public List<TabletOpener.Assigned> current(List<TabletOpener.Assigned> asked) throws IOException {
    Map<String, Table> tables = new HashMap<>();
    List<TabletOpener.Assigned> out = new ArrayList<>(asked.size());
    boolean synced = false;
    for (TabletOpener.Assigned a : asked) {
      if (a.assignment() == 0) {
        out.add(a); // names no assignment (a split's own open, tools): not checked
        continue;
      }
      TabletDescriptor d = a.tablet();
      String name = d.schema().name();
      if (!tables.containsKey(name)) {
        if (!synced) {
          // Once per batch: a sync brings this session's ZooKeeper server up to the leader, whatever the path.
          ZooKeeperSync.await(zk, paths.tables());
          synced = true;
        }
        TableMeta meta = read(name);
        tables.put(name, meta == null ? null : Table.of(meta));
      }
      String why = mismatch(tables.get(name), a);
      if (why == null) {
        out.add(a);
      } else {
        LOG.warn("refused an open of tablet {} of '{}' (table id {}, assignment {}): {}", d.tabletId(),
            Echo.of(name), d.schema().id(), a.assignment(), why);
      }
    }
    return out;
  }

  /** Why the metadata does not give {@code a}'s tablet to this server at its assignment, or null if it does. */
  private String mismatch(Table table, TabletOpener.Assigned a) {
    if (table == null) {
      return "the table does not exist (dropped)";
    }
    if (table.id() != a.tablet().schema().id()) {
      return "the table of that name has id " + table.id() + " now";
    }
    if (!table.groups().equals(a.tablet().schema().columnGroups())) {
      return "its column groups have changed since (altered)";
    }
    TabletLocation t = table.tablets().get(a.tablet().tabletId());
    if (t == null) {
      return "the table has no such tablet now (split?)";
    }
    if (!t.getServerId().equals(serverId) || t.getAssignment() != a.assignment()) {
      return "the metadata gives it to " + t.getServerId() + " at assignment " + t.getAssignment();
    }
    return null;
  }

  /** The table's metadata (read after the batch's sync), or null if there is no such table. */
  private TableMeta read(String table) throws IOException {
    String path = paths.table(table);
    try {
      return TableMeta.parseFrom(zk.getData().forPath(path));
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("the metadata of table '" + Echo.of(table) + "' in ZooKeeper is unreadable", e);
    } catch (Exception e) {
      throw new IOException("cannot read the assignment of table '" + Echo.of(table) + "' from ZooKeeper: " + e, e);
    }
  }
}
