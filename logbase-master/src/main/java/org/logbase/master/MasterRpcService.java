package org.logbase.master;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.logbase.common.ErrorCode;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.AddColumnGroupRequest;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.BalancerRequest;
import org.logbase.rpc.BalancerResponse;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.ClusterStatusResponse;
import org.logbase.rpc.CompactTableRequest;
import org.logbase.rpc.CompactTableResponse;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.DecommissionRequest;
import org.logbase.rpc.DecommissionResponse;
import org.logbase.rpc.DropTableRequest;
import org.logbase.rpc.DropTableResponse;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.HeartbeatResponse;
import org.logbase.rpc.HoldSnapshotRequest;
import org.logbase.rpc.HoldSnapshotResponse;
import org.logbase.rpc.ListTablesRequest;
import org.logbase.rpc.ListTablesResponse;
import org.logbase.rpc.MasterServiceGrpc;
import org.logbase.rpc.MoveTabletRequest;
import org.logbase.rpc.MoveTabletResponse;
import org.logbase.rpc.SplitRequest;
import org.logbase.rpc.SplitResponse;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableName;
import org.logbase.rpc.TimestampRange;
import org.logbase.rpc.TimestampRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC face of the master: refuses everything but ClusterStatus unless this master is active,
 * delegates to the components that do the work, and turns every failure into a status carrying a
 * LogBase error code ({@link RpcErrors#toStatus}), so clients see typed exceptions.
 */
final class MasterRpcService extends MasterServiceGrpc.MasterServiceImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(MasterRpcService.class);
  /** Time kept back from the caller's deadline so that the answer reaches it in time. */
  private static final Duration ANSWER_MARGIN = Duration.ofSeconds(1);
  /** Longest wait for a timestamp bound renewal, for callers without a deadline. */
  private static final Duration TIMESTAMP_WAIT = Duration.ofSeconds(10);
  /** Longest wait for a table's compactions: the caller's deadline usually ends it sooner. */
  private static final Duration COMPACTION_WAIT = Duration.ofMinutes(10);

  private final SnapshotLeases snapshots;
  private final MasterElection election;
  private final TableCatalog catalog;
  private final AssignmentReconciler reconciler;
  private final ServerLoads loads;
  private final ClusterStatusReport status;
  private final TimestampOracle oracle;
  private final Duration tabletCommandDeadline;
  private final Executor blockingCalls;
  private final ClusterAdmin admin;
  private final TableCompactions compactions;

  /** @param blockingCalls runs calls that must wait and arrived on the network thread */
  MasterRpcService(MasterElection election, TableCatalog catalog, AssignmentReconciler reconciler,
      ServerLoads loads, ClusterStatusReport status, TimestampOracle oracle, Duration tabletCommandDeadline,
      Executor blockingCalls, ClusterAdmin admin, TableCompactions compactions, SnapshotLeases snapshots) {
    this.snapshots = snapshots;
    this.admin = admin;
    this.compactions = compactions;
    this.election = election;
    this.catalog = catalog;
    this.reconciler = reconciler;
    this.loads = loads;
    this.status = status;
    this.oracle = oracle;
    this.tabletCommandDeadline = tabletCommandDeadline;
    this.blockingCalls = blockingCalls;
  }

  @Override
  public void createTable(CreateTableRequest request, StreamObserver<TableMeta> out) {
    whenActive(out, () -> catalog.create(request, waitForServers()));
  }

  @Override
  public void dropTable(DropTableRequest request, StreamObserver<DropTableResponse> out) {
    whenActive(out, () -> {
      catalog.drop(request.getName(), request.getRequestId(), waitForServers());
      return DropTableResponse.getDefaultInstance();
    });
  }

  @Override
  public void listTables(ListTablesRequest request, StreamObserver<ListTablesResponse> out) {
    whenActive(out, () -> ListTablesResponse.newBuilder().addAllNames(catalog.list()).build());
  }

  @Override
  public void describeTable(TableName request, StreamObserver<TableMeta> out) {
    whenActive(out, () -> catalog.describe(request.getName()));
  }

  @Override
  public void getTabletLocations(TableName request, StreamObserver<TableMeta> out) {
    whenActive(out, () -> catalog.describe(request.getName()));
  }

  @Override
  public void addColumnGroup(AddColumnGroupRequest request, StreamObserver<TableMeta> out) {
    whenActive(out, () -> catalog.addColumnGroup(request, waitForServers()));
  }

  @Override
  public void alterColumnGroup(AlterColumnGroupRequest request, StreamObserver<TableMeta> out) {
    whenActive(out, () -> catalog.alterColumnGroup(request, waitForServers()));
  }

  @Override
  public void compactTable(CompactTableRequest request, StreamObserver<CompactTableResponse> out) {
    whenActive(out, () -> compactions.compact(request.getTable(), withinDeadline(COMPACTION_WAIT)));
  }

  @Override
  public void moveTablet(MoveTabletRequest request, StreamObserver<MoveTabletResponse> out) {
    whenActive(out, () -> admin.move(request));
  }

  @Override
  public void splitTablet(SplitRequest request, StreamObserver<SplitResponse> out) {
    whenActive(out, () -> admin.split(request));
  }

  @Override
  public void balancer(BalancerRequest request, StreamObserver<BalancerResponse> out) {
    whenActive(out, () -> admin.balancer(request));
  }

  @Override
  public void decommission(DecommissionRequest request, StreamObserver<DecommissionResponse> out) {
    whenActive(out, () -> admin.decommission(request));
  }

  @Override
  public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> out) {
    whenActive(out, () -> {
      if (request.getServerId().isEmpty()) {
        throw new InvalidRequestException("heartbeat without a server id");
      }
      loads.record(request);
      reconciler.reconcileServer(request.getServerId(), request.getServingList());
      return HeartbeatResponse.newBuilder().setOldestSnapshot(snapshots.oldest()).build();
    });
  }

  @Override
  public void holdSnapshot(HoldSnapshotRequest request, StreamObserver<HoldSnapshotResponse> out) {
    whenActive(out, () -> {
      snapshots.hold(request.getLeaseId(), request.getSnapshot(), request.getRelease());
      return HoldSnapshotResponse.newBuilder().setLeaseMs(snapshots.leaseMs()).build();
    });
  }

  /**
   * Runs on the network thread ({@link #onNetworkThread}): in steady state the oracle answers from
   * memory at once, and handing the call to another thread would cost more than the answer. Only
   * when the bound must be raised in ZooKeeper first does the wait move to {@code blockingCalls}.
   */
  @Override
  public void getTimestamps(TimestampRequest request, StreamObserver<TimestampRange> out) {
    int count = request.getCount();
    whenActive(out, () -> {
      long first = oracle.tryNext(count);
      if (first != TimestampOracle.WOULD_WAIT) {
        return range(first, count);
      }
      Duration wait = withinDeadline(TIMESTAMP_WAIT);
      blockingCalls.execute(() -> whenActive(out, () -> range(oracle.next(count, wait), count)));
      return null;
    });
  }

  /** Whether a call of {@code method} runs on the network thread instead of gRPC's executor. */
  static boolean onNetworkThread(String fullMethodName) {
    return MasterServiceGrpc.getGetTimestampsMethod().getFullMethodName().equals(fullMethodName);
  }

  private static TimestampRange range(long first, int count) {
    return TimestampRange.newBuilder().setFirst(first).setCount(count).build();
  }

  /** Answered by every master, active or not: an operator asks any of them. */
  @Override
  public void clusterStatus(ClusterStatusRequest request, StreamObserver<ClusterStatusResponse> out) {
    answer(out, status::build);
  }

  /** One unit of work that produces the response. */
  @FunctionalInterface
  private interface Work<T> {
    T run() throws Exception;
  }

  private <T> void whenActive(StreamObserver<T> out, Work<T> work) {
    answer(out, () -> {
      if (!election.isActive()) {
        throw notActive();
      }
      return work.run();
    });
  }

  /** Answers with what {@code work} returns; null means work handed the call on, to answer later. */
  private static <T> void answer(StreamObserver<T> out, Work<T> work) {
    T response;
    try {
      response = work.run();
    } catch (Throwable t) {
      if (t instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (!(t instanceof StatusRuntimeException) && ErrorCode.of(t) == ErrorCode.INTERNAL) {
        LOG.warn("request failed", t);
      }
      out.onError(RpcErrors.toStatus(t));
      return;
    }
    if (response != null) {
      out.onNext(response);
      out.onCompleted();
    }
  }

  private NotActiveMasterException notActive() {
    String active = election.activeMaster()
        .map(a -> "the active master is " + a)
        .orElse("no master is active at the moment; retry shortly");
    return new NotActiveMasterException("master " + election.self() + " is not the active master; " + active);
  }

  /** How long to wait for tablet servers before answering. */
  private Duration waitForServers() {
    return withinDeadline(tabletCommandDeadline);
  }

  /**
   * How long this call may wait for something: {@code cap}, cut short so that the answer still
   * reaches a caller whose own deadline is nearer.
   */
  private static Duration withinDeadline(Duration cap) {
    Deadline deadline = Context.current().getDeadline();
    if (deadline == null) {
      return cap;
    }
    Duration left = Duration.ofMillis(deadline.timeRemaining(TimeUnit.MILLISECONDS)).minus(ANSWER_MARGIN);
    return left.compareTo(cap) < 0 ? left : cap;
  }
}
