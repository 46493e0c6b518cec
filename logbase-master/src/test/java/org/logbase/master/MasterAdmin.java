package org.logbase.master;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.DropTableRequest;
import org.logbase.rpc.MasterServiceGrpc;
import org.logbase.rpc.MasterServiceGrpc.MasterServiceBlockingStub;
import org.logbase.rpc.TableName;
import org.logbase.rpc.TableSpec;

/**
 * A test's view of one master over a real gRPC channel: failed calls come back as the typed
 * exceptions a client would see ({@link RpcErrors#fromStatus}).
 */
final class MasterAdmin implements AutoCloseable {
  private final ManagedChannel channel;
  private final MasterServiceBlockingStub stub;

  MasterAdmin(String address) {
    channel = NettyChannelBuilder.forTarget(address).usePlaintext().build();
    stub = MasterServiceGrpc.newBlockingStub(channel);
  }

  /** Calls the master with a 30 s deadline. */
  <T> T call(Function<MasterServiceBlockingStub, T> rpc) {
    try {
      return rpc.apply(stub.withDeadlineAfter(30, TimeUnit.SECONDS));
    } catch (StatusRuntimeException e) {
      throw RpcErrors.fromStatus(e, "master call");
    }
  }

  /** A drop with no request id (as older clients send). */
  static DropTableRequest drop(String name) {
    return drop(name, "");
  }

  static DropTableRequest drop(String name, String requestId) {
    return DropTableRequest.newBuilder().setName(name).setRequestId(requestId).build();
  }

  static TableName table(String name) {
    return TableName.newBuilder().setName(name).build();
  }

  static ColumnGroupSpec group(String name, String... columns) {
    return ColumnGroupSpec.newBuilder().setName(name).addAllColumns(List.of(columns)).build();
  }

  static CreateTableRequest createRequest(String name, List<ColumnGroupSpec> groups, String... splitKeys) {
    CreateTableRequest.Builder b = CreateTableRequest.newBuilder()
        .setSpec(TableSpec.newBuilder().setName(name).addAllColumnGroups(groups));
    for (String k : splitKeys) {
      b.addSplitKeys(ByteString.copyFrom(k, StandardCharsets.UTF_8));
    }
    return b.build();
  }

  /** A table with one column group "cf" holding column "c", split at {@code splitKeys}. */
  static CreateTableRequest simpleTable(String name, String... splitKeys) {
    return createRequest(name, List.of(group("cf", "c")), splitKeys);
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
