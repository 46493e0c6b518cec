package org.logbase.master;

import io.grpc.Status;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.TableExistsException;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.AddColumnGroupRequest;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table operations of the active master: create, drop, describe, list, add a column group and
 * change a column group's storage policy.
 * Metadata changes go to ZooKeeper first; the tablet servers are told afterwards, and a server that
 * misses the news gets it through heartbeat reconciliation. Each operation that changes tablets
 * waits up to {@code waitForServers} for the servers' answers before it returns, so that the
 * caller's next request usually finds the tablets open (or closed).
 */
final class TableCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(TableCatalog.class);

  private final TableStore tables;
  private final TableIdCounter tableIds;
  private final LiveServers liveServers;
  private final DrainingServers draining;
  private final TabletCommands commands;
  private final TableLimits limits;
  private final Object assignmentLock;
  private final DoneDrops drops;

  /**
   * @param assignmentLock the lock moves, failover and the reconciliation decide under
   */
  TableCatalog(TableStore tables, TableIdCounter tableIds, LiveServers liveServers, DrainingServers draining,
      TabletCommands commands, TableLimits limits, Object assignmentLock, DoneDrops drops) {
    this.assignmentLock = assignmentLock;
    this.drops = drops;
    this.draining = draining;
    this.tables = tables;
    this.tableIds = tableIds;
    this.liveServers = liveServers;
    this.commands = commands;
    this.limits = limits;
  }

  /**
   * Creates a table: validates the schema and split keys, assigns the table id and column group
   * ids 0..n-1, places the tablets on the live servers with the fewest tablets, stores the metadata
   * and asks the servers to open the tablets.
   */
  TableMeta create(CreateTableRequest request, Duration waitForServers) throws Exception {
    TableSpec spec = withGroupIds(request.getSpec());
    validate(spec);
    List<TabletSpec> tablets = TabletLayout.fromSplitKeys(request.getSplitKeysList(), limits);
    String name = spec.getName();
    if (tables.exists(name)) {
      // Checked early only to save a table id; the create below decides races.
      return madeByThisRequest(name, request);
    }
    Map<String, String> live = liveServers.read();
    if (live.isEmpty()) {
      // Not the caller's fault and no LogBase error code fits; FAILED_PRECONDITION says "not now".
      throw Status.FAILED_PRECONDITION
          .withDescription("cannot create table '" + name + "': no tablet server is live")
          .asRuntimeException();
    }
    Map<String, Integer> load = TableMetas.tabletsPerServer(tables.all());
    List<String> owners = TabletPlacement.place(tablets.size(), draining.placeable(live).keySet(), load);
    checkServerLoad(name, owners, load);
    TableMeta.Builder meta = TableMeta.newBuilder()
        .setSpec(spec.toBuilder().setId(tableIds.next()))
        .setNextColumnGroupId(spec.getColumnGroupsCount())
        .setNextTabletId(tablets.size());
    for (int i = 0; i < tablets.size(); i++) {
      meta.addTablets(TabletLocation.newBuilder().setTablet(tablets.get(i)).setServerId(owners.get(i)).setAssignment(1));
    }
    TableMeta created = meta.setCreateRequestId(request.getRequestId()).build();
    try {
      tables.create(created);
    } catch (TableExistsException raced) {
      return madeByThisRequest(name, request);
    }
    LOG.info("created table '{}' (id {}) with {} tablets on {} servers", name, created.getSpec().getId(),
        tablets.size(), created.getTabletsList().stream().map(TabletLocation::getServerId).distinct().count());
    TabletCommands.awaitWhileLive(commands.openAll(created, live), waitForServers, () -> liveServers.read().keySet());
    return TableMetas.withAddresses(created, live);
  }

  /**
   * The table {@code name}, which exists, if this very request created it (its answer was lost, in a
   * master failover say, and the client sent it again); otherwise {@link TableExistsException}.
   */
  private TableMeta madeByThisRequest(String name, CreateTableRequest request) throws Exception {
    TableMeta existing = tables.read(name).map(TableStore.Versioned::meta).orElse(null);
    if (existing != null && !request.getRequestId().isEmpty()
        && request.getRequestId().equals(existing.getCreateRequestId())) {
      LOG.info("create of table '{}' sent again (request {}): it was made by the first one", name,
          request.getRequestId());
      return TableMetas.withAddresses(existing, liveServers.read());
    }
    throw new TableExistsException("table '" + name + "' exists already");
  }

  /** Refuses a placement that would give a server more tablets than it may serve. */
  private void checkServerLoad(String table, List<String> owners, Map<String, Integer> load) {
    Map<String, Integer> after = new HashMap<>(load);
    owners.forEach(s -> after.merge(s, 1, Integer::sum));
    for (Map.Entry<String, Integer> e : after.entrySet()) {
      if (e.getValue() > limits.maxTabletsPerServer()) {
        throw new InvalidRequestException("table '" + table + "' would put " + e.getValue() + " tablets on server "
            + e.getKey() + "; a server serves at most " + limits.maxTabletsPerServer() + " ("
            + TableLimits.MAX_TABLETS_PER_SERVER + "): add tablet servers or use fewer split keys");
      }
    }
  }

  /**
   * Deletes a table's metadata, then asks its servers to close its tablets (best effort). A drop
   * whose request id dropped a table already is answered as done and drops nothing.
   */
  void drop(String name, String requestId, Duration waitForServers) throws Exception {
    DoneDrops.check(requestId);
    if (drops.done(requestId)) {
      LOG.info("drop of table '{}' asked again by request {}: done already", name, requestId);
      return;
    }
    TableMeta dropped = tables.delete(name, requestId);
    LOG.info("dropped table '{}' (id {})", name, dropped.getSpec().getId());
    drops.prune();
    // Not for a server whose session expired meanwhile (paused, cut off): it serves nothing now.
    TabletCommands.awaitWhileLive(commands.closeAllByServer(dropped, liveServers.read()), waitForServers,
        () -> liveServers.read().keySet());
  }

  /** The table with the current address of each tablet's server. */
  TableMeta describe(String name) throws Exception {
    TableMeta meta = tables.get(name).meta();
    return TableMetas.withAddresses(meta, liveServers.read());
  }

  /** Names of all tables, sorted. */
  List<String> list() throws Exception {
    return tables.names();
  }

  /**
   * Adds a column group with the next unused id, then re-opens every tablet with the new schema
   * (a tablet server treats a re-open with more column groups as a schema change).
   */
  TableMeta addColumnGroup(AddColumnGroupRequest request, Duration waitForServers) throws Exception {
    TableMeta updated = tables.update(request.getTable(), current -> {
      int id = current.getNextColumnGroupId();
      ColumnGroupSpec group = request.getColumnGroup().toBuilder().setId(id).build();
      TableSpec spec = current.getSpec().toBuilder().addColumnGroups(group).build();
      validate(spec);
      return current.toBuilder().setSpec(spec).setNextColumnGroupId(id + 1).build();
    });
    LOG.info("table '{}': added column group '{}' (id {})", request.getTable(),
        request.getColumnGroup().getName(), updated.getNextColumnGroupId() - 1);
    return reopen(request.getTable(), waitForServers);
  }

  /**
   * Changes one column group's storage policy (the fields the request sets), then re-opens every
   * tablet with the new schema: a tablet server gives a tablet it serves the new policy in place,
   * with its indexes and its write gate.
   */
  TableMeta alterColumnGroup(AlterColumnGroupRequest request, Duration waitForServers) throws Exception {
    GroupPolicyChange.checkSomethingSet(request);
    TableMeta updated = tables.update(request.getTable(),
        current -> current.toBuilder().setSpec(GroupPolicyChange.apply(current.getSpec(), request)).build());
    updated.getSpec().getColumnGroupsList().stream().filter(g -> g.getName().equals(request.getColumnGroup()))
        .forEach(g -> LOG.info("table '{}': column group '{}' now keeps {} versions (0: all), for {} ms (0: forever),"
            + " compressed with {}", request.getTable(), g.getName(), g.getMaxVersions(), g.getTtlMs(), g.getCompression()));
    return reopen(request.getTable(), waitForServers);
  }

  /**
   * Re-opens every tablet of a table with the schema stored now, after a schema change, and waits
   * up to {@code waitForServers} for the servers.
   */
  private TableMeta reopen(String table, Duration waitForServers) throws Exception {
    Map<String, String> live;
    Map<String, CompletableFuture<Void>> opens;
    TableMeta now;
    synchronized (assignmentLock) {
      // On the assignment as it is now: a tablet moved since the update is re-opened on its new
      // server, and one being moved is left to its move (the target opens it with the new schema).
      // An open sent to a tablet's old server after a move would serve it there again.
      now = tables.get(table).meta();
      TableMeta.Builder reopen = now.toBuilder().clearTablets();
      for (TabletLocation t : now.getTabletsList()) {
        if (!TableMetas.changing(t)) {
          reopen.addTablets(t);
        }
      }
      live = liveServers.read();
      opens = commands.openAll(reopen.build(), live);
    }
    TabletCommands.awaitWhileLive(opens, waitForServers, () -> liveServers.read().keySet());
    return TableMetas.withAddresses(now, live);
  }

  /** The spec with column group ids 0..n-1 in the order given (ids in a request are ignored). */
  private static TableSpec withGroupIds(TableSpec requested) {
    TableSpec.Builder b = requested.toBuilder().setId(0);
    for (int i = 0; i < b.getColumnGroupsCount(); i++) {
      b.getColumnGroupsBuilder(i).setId(i);
    }
    return b.build();
  }

  /** Names, non-empty column groups, unique group names and unique columns: the schema's own rules. */
  private static void validate(TableSpec spec) {
    try {
      SchemaProtos.fromProto(spec);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage());
    }
  }
}
