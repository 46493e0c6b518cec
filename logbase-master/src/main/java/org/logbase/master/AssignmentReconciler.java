package org.logbase.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings tablet servers in line with the assignment in ZooKeeper: a tablet assigned to a live
 * server that the server does not serve is opened again. This is how a restarted tablet server, or
 * one that was unreachable when a table was created or changed, gets its tablets; a tablet of a
 * dropped table that a server still serves is closed.
 *
 * <p>Tablets assigned to a server that is not live are {@link TabletFailover}'s: it moves them to
 * live servers. Both decide under the same lock, as do {@link TabletMoves}: a tablet being moved or
 * split (its intent is in the assignment) is not opened again on the server that closed it.
 */
final class AssignmentReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(AssignmentReconciler.class);

  private final TableStore tables;
  private final LiveServers liveServers;
  private final TabletCommands commands;
  private final TabletFailover failover;

  AssignmentReconciler(TableStore tables, LiveServers liveServers, TabletCommands commands, TabletFailover failover) {
    this.failover = failover;
    this.tables = tables;
    this.liveServers = liveServers;
    this.commands = commands;
  }

  /**
   * Run when this master becomes active: it knows nothing of what the servers serve yet, so it
   * (re-)opens every assigned tablet on its live server. Opening a tablet that is already open with
   * the same schema is a no-op for a tablet server. Does not wait for the servers' answers.
   */
  void reconcileAll() throws Exception {
    synchronized (failover.lock()) { // as every open: on the assignment as it is, no move under way
      List<TableMeta> all = tables.all();
      Map<String, String> live = liveServers.read();
      int tablets = all.stream().mapToInt(TableMeta::getTabletsCount).sum();
      LOG.info("loaded metadata of {} tables ({} tablets); {} tablet servers live", all.size(), tablets,
          live.size());
      commands.openAll(all, live);
    }
  }

  /**
   * Whether a served tablet is of the table its name has now: a server that does not say the table
   * id (0) is taken at its word.
   */
  private static boolean isCurrent(TabletRef ref, Map<String, Integer> tableIds) {
    Integer id = tableIds.get(ref.getTable());
    return id != null && (ref.getTableId() == 0 || ref.getTableId() == id);
  }

  /**
   * The fingerprint of a table's schema as servers compute it; 0 (no comparison) for a stored spec
   * this master cannot read (one written by a newer version): one table must not stop the
   * reconciliation of all.
   */
  private static long fingerprint(TableMeta table) {
    try {
      return SchemaProtos.fromProto(table.getSpec()).fingerprint();
    } catch (IllegalArgumentException e) {
      LOG.warn("table '{}': its stored schema cannot be read ({}); its tablets' schemas are not compared",
          table.getSpec().getName(), e.getMessage());
      return 0;
    }
  }

  /**
   * Run for each heartbeat: opens the tablets assigned to {@code serverId} that it did not list as
   * serving. A server that is not registered in ZooKeeper (its session ended) gets nothing: it is
   * about to stop serving, and its tablets must not be handed back to it.
   */
  void reconcileServer(String serverId, List<TabletRef> serving) throws Exception {
    synchronized (failover.lock()) {
      reconcileLocked(serverId, serving);
    }
  }

  private void reconcileLocked(String serverId, List<TabletRef> serving) throws Exception {
    String address = liveServers.read().get(serverId);
    if (address == null) {
      LOG.debug("heartbeat from server {}, which is not registered as live: not reconciled", serverId);
      return;
    }
    failover.sawLive(serverId);
    List<TableMeta> all = tables.all();
    Map<String, Integer> tableIds = new HashMap<>();
    Map<String, TableMeta> byName = new HashMap<>();
    for (TableMeta table : all) {
      tableIds.put(table.getSpec().getName(), table.getSpec().getId());
      byName.put(table.getSpec().getName(), table);
    }
    // Only for the tables this server serves with a fingerprint, once each.
    Map<String, Long> fingerprints = new HashMap<>();
    // A server that was unreachable when its table was dropped still serves the tablets, perhaps
    // under a name that a table created since has again: closed by the dropped table's id. The
    // server opens none of the new table's tablets while it serves one of the dropped table's, so
    // those are opened at a heartbeat that no longer lists it (an open sent now, beside the close,
    // would be refused with every tablet sent with it).
    // A tablet served with a schema other than its table's now (a schema change whose re-open failed
    // there: the server was unreachable, or refused it) is opened again with the table's schema: a
    // server changes a served tablet's schema in place.
    Set<String> served = new HashSet<>();
    Set<String> staleSchema = new HashSet<>();
    Set<String> namesakesClosing = new HashSet<>();
    for (TabletRef ref : serving) {
      if (isCurrent(ref, tableIds)) {
        String name = TableMetas.tabletName(ref.getTable(), ref.getTabletId());
        served.add(name);
        if (ref.getSchemaFingerprint() != 0) {
          long now = fingerprints.computeIfAbsent(ref.getTable(), n -> fingerprint(byName.get(n)));
          if (now != 0 && ref.getSchemaFingerprint() != now) {
            staleSchema.add(name);
          }
        }
      } else {
        if (tableIds.containsKey(ref.getTable())) {
          namesakesClosing.add(ref.getTable());
        }
        LOG.info("server {} serves tablet {} of a dropped table{}: closing it", serverId,
            TableMetas.tabletName(ref.getTable(), ref.getTabletId()),
            ref.getTableId() == 0 ? "" : " (table id " + ref.getTableId() + ")");
        // Its table is gone: no assignment version.
        commands.close(serverId, address, ref.getTable(), ref.getTableId(), ref.getTabletId(), 0);
      }
    }
    List<TabletCommands.Assignment> missing = new ArrayList<>();
    int reschemed = 0;
    for (TableMeta table : all) {
      for (TabletLocation t : table.getTabletsList()) {
        String name = TableMetas.tabletName(table.getSpec().getName(), t.getTablet().getTabletId());
        // A tablet being moved is closed on its server on purpose: not opened there again; one
        // being split is TabletSplits' (its server opens it, if need be, to split it).
        if (t.getServerId().equals(serverId) && (!served.contains(name) || staleSchema.contains(name))
            && !TableMetas.changing(t) && !namesakesClosing.contains(table.getSpec().getName())) {
          missing.add(TabletCommands.Assignment.of(table.getSpec(), t));
          reschemed += served.contains(name) ? 1 : 0;
        }
      }
    }
    if (!missing.isEmpty()) {
      String example = TableMetas.tabletName(missing.get(0).table().getName(), missing.get(0).tablet().getTabletId());
      if (reschemed == 0) {
        LOG.info("server {} does not serve {} of its tablets (e.g. {}): opening them", serverId, missing.size(), example);
      } else {
        LOG.info("server {} does not serve {} of its tablets, or serves them with an earlier schema ({} of them;"
            + " e.g. {}): opening them with their table's schema", serverId, missing.size(), reschemed, example);
      }
      commands.open(serverId, address, missing);
    }
  }
}
