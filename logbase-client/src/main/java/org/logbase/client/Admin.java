package org.logbase.client;

import com.google.protobuf.ByteString;
import io.grpc.Deadline;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.logbase.common.Echo;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.AddColumnGroupRequest;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.ListTablesRequest;
import org.logbase.rpc.MasterServiceGrpc.MasterServiceBlockingStub;
import org.logbase.rpc.TableName;

/**
 * Table management and cluster status, through the active master. Calls ride through master
 * failovers until {@code rpc.deadline.ms}. A call repeated after a failover may find its own work
 * done: a create may then fail with {@link org.logbase.common.TableExistsException}. Thread-safe.
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
    CreateTableRequest.Builder request = CreateTableRequest.newBuilder()
        .setSpec(SchemaProtos.toProto(definition.schema()));
    Arrays.stream(splitKeys).map(ByteString::copyFrom).forEach(request::addSplitKeys);
    return changeTable(definition.name(), "create table", stub -> stub.createTable(request.build()));
  }

  /** Adds a column group to a table; its columns must be new to the table. */
  public TableDescription addColumnGroup(String table, String group, String... columns) {
    AddColumnGroupRequest request = AddColumnGroupRequest.newBuilder()
        .setTable(table)
        .setColumnGroup(SchemaProtos.toProto(new ColumnGroup(0, group, Arrays.asList(columns))))
        .build();
    return changeTable(table, "add column group", stub -> stub.addColumnGroup(request));
  }

  /** Drops a table and its data. */
  public void dropTable(String table) {
    call("drop table '" + Echo.of(table) + "'", stub -> stub.dropTable(name(table)));
    locations.forget(table);
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

  private static TableName name(String table) {
    return TableName.newBuilder().setName(table).build();
  }
}
