package org.logbase.master;

import com.google.protobuf.ByteString;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.logbase.common.rpc.ChannelPool;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.CloseTabletResponse;
import org.logbase.rpc.CompactTabletRequest;
import org.logbase.rpc.CompactTabletResponse;
import org.logbase.rpc.CompactionStats;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.OpenTabletsRequest;
import org.logbase.rpc.OpenTabletsResponse;
import org.logbase.rpc.SplitTabletRequest;
import org.logbase.rpc.SplitTabletResponse;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.TabletAdminServiceGrpc;
import org.logbase.rpc.TabletAdminServiceGrpc.TabletAdminServiceStub;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletSpec;

/**
 * The master's calls to tablet servers ({@code TabletAdminService}): one gRPC channel per address,
 * created on first use and kept (a channel reconnects by itself when its server restarts on the
 * same address), all closed by {@link #close()}. Calls are asynchronous and carry a deadline.
 */
final class TabletServerClients implements AutoCloseable {
  private final ChannelPool channels;
  private final Duration deadline;
  private final LongSupplier epoch;
  private volatile boolean closed;

  /** @param epoch this master's epoch, sent with every command ({@link MasterEpoch}) */
  TabletServerClients(int maxMessageBytes, Duration deadline, LongSupplier epoch) {
    this.channels = new ChannelPool(maxMessageBytes);
    this.deadline = deadline;
    this.epoch = epoch;
  }

  /**
   * Asks the server at {@code address} to open (or re-open with a newer schema) tablets, all in one
   * pass over its log; completes with those it left out ({@link OpenTabletsResponse#getLeftOutList}).
   */
  CompletableFuture<List<TabletRef>> openTablets(String address, List<OpenTabletRequest> tablets) {
    OpenTabletsRequest request = OpenTabletsRequest.newBuilder().addAllTablets(tablets)
        .setMasterEpoch(epoch.getAsLong()).build();
    return this.<OpenTabletsResponse>call(address, (stub, done) -> stub.openTablets(request, done))
        .thenApply(OpenTabletsResponse::getLeftOutList);
  }

  /** Asks the server at {@code address} to stop serving a tablet; the answer says how long it still served. */
  CompletableFuture<CloseTabletResponse> closeTablet(String address, String table, int tableId, int tabletId,
      long assignment, boolean dropped) {
    CloseTabletRequest request = CloseTabletRequest.newBuilder().setTable(table).setTableId(tableId)
        .setTabletId(tabletId).setMasterEpoch(epoch.getAsLong()).setAssignment(assignment).setDropped(dropped).build();
    return this.<CloseTabletResponse>call(address, (stub, done) -> stub.closeTablet(request, done));
  }

  /** Asks the server at {@code address} to split a tablet; completes with the key it split at. */
  CompletableFuture<byte[]> splitTablet(String address, TableSpec table, TabletSpec tablet, byte[] key, int leftId,
      int rightId) {
    SplitTabletRequest.Builder request = SplitTabletRequest.newBuilder().setTable(table).setTablet(tablet)
        .setLeftId(leftId).setRightId(rightId).setMasterEpoch(epoch.getAsLong());
    if (key != null) {
      request.setSplitKey(ByteString.copyFrom(key));
    }
    return this.<SplitTabletResponse>call(address, (stub, done) -> stub.splitTablet(request.build(), done))
        .thenApply(r -> r.getSplitKey().toByteArray());
  }

  /**
   * Asks the server at {@code address} to compact a tablet now; completes with what the compaction
   * did. It may take long: the call's deadline is {@code deadline}, not the commands' usual one.
   */
  CompletableFuture<CompactionStats> compactTablet(String address, String table, int tabletId, Duration deadline) {
    CompactTabletRequest request = CompactTabletRequest.newBuilder().setTable(table).setTabletId(tabletId)
        .setMasterEpoch(epoch.getAsLong()).build();
    return this.<CompactTabletResponse>call(address, deadline, (stub, done) -> stub.compactTablet(request, done))
        .thenApply(CompactTabletResponse::getStats);
  }

  @Override
  public void close() {
    closed = true;
    channels.close();
  }

  /** One asynchronous call with a single response. */
  private interface AdminCall<R> {
    void send(TabletAdminServiceStub stub, StreamObserver<R> done);
  }

  private <R> CompletableFuture<R> call(String address, AdminCall<R> call) {
    return call(address, deadline, call);
  }

  private <R> CompletableFuture<R> call(String address, Duration callDeadline, AdminCall<R> call) {
    CompletableFuture<R> result = new CompletableFuture<>();
    if (closed) {
      result.completeExceptionally(new IllegalStateException("master is shutting down"));
      return result;
    }
    TabletAdminServiceStub stub = TabletAdminServiceGrpc.newStub(channel(address))
        .withDeadlineAfter(callDeadline.toMillis(), TimeUnit.MILLISECONDS);
    // Commands are often sent from inside an RPC handler (a heartbeat); in that RPC's context they
    // would be cancelled the moment its answer is sent. They must outlive it: fork.
    Context.current().fork().run(() -> call.send(stub, observer(result)));
    return result;
  }

  private static <R> StreamObserver<R> observer(CompletableFuture<R> result) {
    return new StreamObserver<>() {
      private R response;

      @Override
      public void onNext(R r) {
        response = r;
      }

      @Override
      public void onError(Throwable t) {
        result.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        result.complete(response);
      }
    };
  }

  private ManagedChannel channel(String address) {
    return channels.channel(address);
  }
}
