package org.logbase.client;

import com.google.protobuf.ByteString;
import io.grpc.Deadline;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.logbase.common.Echo;
import org.logbase.common.LogBaseException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.rpc.AddColumnGroupRequest;
import org.logbase.rpc.BalancerRequest;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.CompactTableRequest;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.DecommissionRequest;
import org.logbase.rpc.DropTableRequest;
import org.logbase.rpc.ListTablesRequest;
import org.logbase.rpc.MasterServiceGrpc.MasterServiceBlockingStub;
import org.logbase.rpc.MoveTabletRequest;
import org.logbase.rpc.MoveTabletResponse;
import org.logbase.rpc.SplitRequest;
import org.logbase.rpc.SplitResponse;
import org.logbase.rpc.TableName;

/**
 * Table management and cluster status, through the active master. Calls ride through master
 * failovers until {@code rpc.deadline.ms}. A create, drop, move or split repeated after a failover
 * finds the work it did, or finishes it (they carry request ids); the other calls give the same
 * answer when repeated. Thread-safe.
 */
public final class Admin {
  private final MasterRpc master;
  private final LocationCache locations;
  private final ClientSettings settings;

  Admin(MasterRpc master, LocationCache locations, ClientSettings settings) {
    this.master = master;
    this.locations = locations;
    this.settings = settings;
  }

  /**
   * Creates a table with n + 1 tablets for n split keys.
   *
   * @throws org.logbase.common.TableExistsException if a table of that name exists
   */
  public TableDescription createTable(TableDefinition definition, byte[]... splitKeys) {
    // One id for all attempts: a create sent again after a master failover finds the table it made.
    String requestId = UUID.randomUUID().toString();
    CreateTableRequest.Builder request = CreateTableRequest.newBuilder()
        .setSpec(SchemaProtos.toProto(definition.schema())).setRequestId(requestId);
    Arrays.stream(splitKeys).map(ByteString::copyFrom).forEach(request::addSplitKeys);
    TableDescription d = Protos.description(callOnce("create table '" + Echo.of(definition.name()) + "'", requestId,
        "describe the table", stub -> stub.createTable(request.build())));
    locations.forget(definition.name());
    return d;
  }

  /** Adds a column group to a table; its columns must be new to the table. */
  public TableDescription addColumnGroup(String table, String group, String... columns) {
    return addColumnGroup(table, group, Arrays.asList(columns), StoragePolicy.DEFAULT);
  }

  /** Adds a column group with its storage policy to a table; its columns must be new to the table. */
  public TableDescription addColumnGroup(String table, String group, List<String> columns, StoragePolicy policy) {
    AddColumnGroupRequest request = AddColumnGroupRequest.newBuilder()
        .setTable(table)
        .setColumnGroup(SchemaProtos.toProto(new ColumnGroup(0, group, columns, policy)))
        .build();
    return changeTable(table, "add column group", stub -> stub.addColumnGroup(request));
  }

  /**
   * Changes the storage policy of a column group (versions kept, time to live, compression): the
   * settings {@code change} gives, the others stay. The table's tablets are re-opened with it on
   * their servers (no data is moved).
   *
   * @throws org.logbase.common.InvalidRequestException for an unknown group or a value out of bounds
   * @throws TableNotFoundException if the table does not exist
   */
  public TableDescription alterColumnGroup(String table, String group, PolicyChange change) {
    return changeTable(table, "alter column group '" + Echo.of(group) + "' of",
        stub -> stub.alterColumnGroup(change.toRequest(table, group)));
  }

  /**
   * Compacts every tablet of a table now, on the servers that serve them (the servers in parallel,
   * one tablet at a time on each), and returns each tablet's outcome in key order: a tablet that
   * was not compacted (its server is down, refused or failed) says why, and the others are compacted
   * all the same. Tablets whose compaction outlasts {@code rpc.deadline.ms} are reported without
   * an answer; their servers go on.
   *
   * @throws TableNotFoundException if the table does not exist
   */
  public List<TabletCompaction> compact(String table) {
    return Protos.compactions(call("compact table '" + Echo.of(table) + "'",
        stub -> stub.compactTable(CompactTableRequest.newBuilder().setTable(table).build())));
  }

  /** Drops a table and its data. */
  public void dropTable(String table) {
    // One id for all attempts: a drop sent again after a master failover finds it was done.
    String requestId = UUID.randomUUID().toString();
    DropTableRequest request = DropTableRequest.newBuilder().setName(table).setRequestId(requestId).build();
    callOnce("drop table '" + Echo.of(table) + "'", requestId, "list the tables", stub -> stub.dropTable(request));
    locations.forget(table);
  }

  /**
   * Empties a table: drops it and creates it again with the same column groups (and their storage
   * policies) and split keys (the start keys of its tablets now). Not atomic: if this fails between the two steps, the table
   * is gone and the exception says how to create it again.
   *
   * @return the new, empty table
   */
  public TableDescription truncateTable(String table) {
    TableDescription before = describeTable(table);
    TableDefinition.Builder definition = TableDefinition.builder(table);
    before.schema().columnGroups().forEach(g -> definition.columnGroup(g.name(), g.columns(), g.policy()));
    byte[][] splits = before.tablets().stream().map(TabletInfo::startKey).filter(k -> k.length > 0)
        .toArray(byte[][]::new);
    dropTable(table);
    try {
      return createTable(definition.build(), splits);
    } catch (LogBaseException e) {
      throw new LogBaseException("truncate of table '" + table + "' dropped it but could not create it again: "
          + e.getMessage() + ". Its column groups were " + before.schema().columnGroups() + ", its split keys "
          + splits.length, e);
    }
  }

  /** Whether a table of this name exists. */
  public boolean tableExists(String table) {
    try {
      describeTable(table);
      return true;
    } catch (TableNotFoundException e) {
      return false;
    }
  }

  /** The names of all tables. */
  public List<String> listTables() {
    return call("list tables", stub -> stub.listTables(ListTablesRequest.getDefaultInstance()).getNamesList());
  }

  /** A table's schema and its tablets with their servers. */
  public TableDescription describeTable(String table) {
    return Protos.description(call("describe table '" + Echo.of(table) + "'", stub -> stub.describeTable(name(table))));
  }

  /** Masters, tablet servers with their tablets and load. */
  public ClusterStatus clusterStatus() {
    return Protos.clusterStatus(
        call("cluster status", stub -> stub.clusterStatus(ClusterStatusRequest.getDefaultInstance())));
  }

  /**
   * Moves a tablet to another tablet server: the tablet is closed where it is served and opened on
   * {@code server} from its checkpoint, with no data copied; clients follow it on their next
   * request. Returns once the new server serves it.
   *
   * @param server the target server's id; null: the live server with the fewest tablets
   */
  public TabletMove moveTablet(String table, int tabletId, String server) {
    // One id for all attempts: a move sent again after a master failover finishes or finds its own.
    String requestId = UUID.randomUUID().toString();
    MoveTabletRequest.Builder request = MoveTabletRequest.newBuilder().setTable(table).setTabletId(tabletId)
        .setRequestId(requestId);
    if (server != null) {
      request.setServerId(server);
    }
    MoveTabletResponse r = callOnce("move tablet " + tabletId + " of table '" + Echo.of(table) + "'", requestId,
        "describe the table", stub -> stub.moveTablet(request.build()));
    locations.forget(table);
    return new TabletMove(table, tabletId, r.getFromServer(), r.getToServer(), r.getUnavailableMs());
  }

  /**
   * Splits a tablet in two at {@code key} (null: about the middle of its rows) on the server that
   * serves it; no data is copied. Returns once the daughters are assigned (they serve moments later;
   * clients wait for them like for a move).
   */
  public TabletSplit splitTablet(String table, int tabletId, byte[] key) {
    String requestId = UUID.randomUUID().toString();
    SplitRequest.Builder request = SplitRequest.newBuilder().setTable(table).setTabletId(tabletId)
        .setRequestId(requestId);
    if (key != null) {
      request.setSplitKey(ByteString.copyFrom(key));
    }
    SplitResponse r = callOnce("split tablet " + tabletId + " of table '" + Echo.of(table) + "'", requestId,
        "describe the table", stub -> stub.splitTablet(request.build()));
    locations.forget(table);
    return new TabletSplit(table, tabletId, r.getLeftId(), r.getRightId(), r.getSplitKey().toByteArray(),
        r.getServerId());
  }

  /** Switches the master's balancer on or off; returns the previous setting. */
  public boolean setBalancer(boolean on) {
    boolean before = balancerEnabled();
    call("switch the balancer " + (on ? "on" : "off"),
        stub -> stub.balancer(BalancerRequest.newBuilder().setSet(true).setEnabled(on).build()));
    return before;
  }

  /** Whether the master's balancer evens out tablets over the servers. */
  public boolean balancerEnabled() {
    return call("ask whether the balancer is on", stub -> stub.balancer(BalancerRequest.getDefaultInstance()))
        .getEnabled();
  }

  /**
   * Decommissions a tablet server: it gets no new tablets and its tablets move to the others, so
   * that it can be stopped once {@link #clusterStatus} shows it without tablets.
   *
   * @return the number of tablets it had when the call was answered
   */
  public int decommission(String server) {
    return call("decommission server '" + Echo.of(server) + "'",
        stub -> stub.decommission(DecommissionRequest.newBuilder().setServerId(server).build())).getTabletsLeft();
  }

  /** Cancels a decommission: the server takes tablets again (the balancer gives it some). */
  public void recommission(String server) {
    call("recommission server '" + Echo.of(server) + "'",
        stub -> stub.decommission(DecommissionRequest.newBuilder().setServerId(server).setCancel(true).build()));
  }

  private TableDescription changeTable(
      String table, String what, Function<MasterServiceBlockingStub, org.logbase.rpc.TableMeta> change) {
    TableDescription d = Protos.description(call(what + " '" + Echo.of(table) + "'", change));
    locations.forget(table);
    return d;
  }

  private <T> T call(String what, Function<MasterServiceBlockingStub, T> call) {
    Deadline deadline = settings.newDeadline();
    return master.call(what, deadline, call);
  }

  /**
   * A call that changes something and carries a request id. Retried until the deadline, its last
   * failure is only the last of its attempts' (a master killed, say), while another attempt may
   * have reached a master that did the work: so that case says the outcome is not known, and how to
   * find it out, instead of reporting the last attempt's error as if nothing was done.
   */
  private <T> T callOnce(String what, String requestId, String check, Function<MasterServiceBlockingStub, T> call) {
    try {
      return call(what, call);
    } catch (ZooKeeperUnreachableException neverSent) {
      throw neverSent;
    } catch (LogBaseException e) {
      // A master too slow to answer within the deadline may have done it as well as a gone one.
      if (!RpcErrors.isRetriable(e) && !RpcErrors.isDeadlineExceeded(e)) {
        throw e;
      }
      throw new LogBaseException(what + ": no answer from an active master within rpc.deadline.ms ("
          + settings.deadlineMs() + " ms); it may have been done all the same (request " + requestId + "): "
          + check + " to see. The last attempt failed with: " + e.getMessage(), e);
    }
  }

  private static TableName name(String table) {
    return TableName.newBuilder().setName(table).build();
  }
}
