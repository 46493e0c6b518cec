package org.logbase.client.fake;

import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.TimestampRequests;
import org.logbase.rpc.AddColumnGroupRequest;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.ClusterStatusRequest;
import org.logbase.rpc.ClusterStatusResponse;
import org.logbase.rpc.CompactTableRequest;
import org.logbase.rpc.CompactTableResponse;
import org.logbase.rpc.CompactionStats;
import org.logbase.rpc.CreateTableRequest;
import org.logbase.rpc.DropTableRequest;
import org.logbase.rpc.DropTableResponse;
import org.logbase.rpc.ListTablesRequest;
import org.logbase.rpc.ListTablesResponse;
import org.logbase.rpc.MasterServiceGrpc;
import org.logbase.rpc.ServerLoad;
import org.logbase.rpc.ServerStatus;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableName;
import org.logbase.rpc.TabletCompaction;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TimestampRange;
import org.logbase.rpc.TimestampRequest;

/** A master that answers from {@link FakeMetadata} while active and NOT_ACTIVE_MASTER otherwise. */
public final class FakeMaster extends MasterServiceGrpc.MasterServiceImplBase {
  private final FakeMetadata meta;
  private final Server server;
  private final String address;
  private final AtomicInteger served = new AtomicInteger();
  private final List<Integer> timestampCalls = new CopyOnWriteArrayList<>();
  private int locationLookups; // guarded by this
  private volatile boolean active;
  private volatile CountDownLatch timestampGate = new CountDownLatch(0);
  private volatile CountDownLatch dropAnswerGate = new CountDownLatch(0);
  private volatile String failingCompactions = "";

  FakeMaster(FakeMetadata meta) {
    this.meta = meta;
    this.server = FakeRpc.serve(this);
    this.address = FakeRpc.address(server);
    meta.addMaster(address);
  }

  public String address() {
    return address;
  }

  /** Requests answered while active. */
  public int served() {
    return served.get();
  }

  public synchronized int locationLookups() {
    return locationLookups;
  }

  /** Waits until tablet locations were asked for at least {@code count} times; false on timeout. */
  public synchronized boolean awaitLocationLookups(int count, long timeout, TimeUnit unit) throws InterruptedException {
    long end = System.nanoTime() + unit.toNanos(timeout);
    while (locationLookups < count) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  /** The count of every GetTimestamps call that reached this master while active, in arrival order. */
  public List<Integer> timestampCalls() {
    return List.copyOf(timestampCalls);
  }

  /** Holds GetTimestamps calls (after counting them) until the returned latch is counted down. */
  /** Drops are done at once and answered only once the returned latch is counted down: a slow master. */
  public CountDownLatch holdDropAnswers() {
    CountDownLatch gate = new CountDownLatch(1);
    dropAnswerGate = gate;
    return gate;
  }

  public CountDownLatch holdTimestamps() {
    CountDownLatch gate = new CountDownLatch(1);
    timestampGate = gate;
    return gate;
  }

  /**
   * Compactions of tablets on {@code serverId} fail from now on, as a server that cannot compact
   * answers; the others get canned numbers (bytes in: 1000 per tablet id + 1000, out: a quarter).
   */
  public void failCompactionsOn(String serverId) {
    failingCompactions = serverId;
  }

  private synchronized void countLocationLookup() {
    locationLookups++;
    notifyAll();
  }

  void setActive(boolean active) {
    this.active = active;
  }

  void stop() {
    FakeRpc.stop(server);
  }

  private <T> void answer(StreamObserver<T> observer, Supplier<T> body) {
    FakeRpc.respond(observer, () -> {
      if (!active) {
        throw new NotActiveMasterException("master " + address + " is not the active master");
      }
      served.incrementAndGet();
      return body.get();
    });
  }

  @Override
  public void createTable(CreateTableRequest request, StreamObserver<TableMeta> observer) {
    answer(observer, () -> meta.create(request.getSpec(), request.getSplitKeysList()));
  }

  @Override
  public void dropTable(DropTableRequest request, StreamObserver<DropTableResponse> observer) {
    answer(observer, () -> {
      meta.drop(request.getName());
      try {
        dropAnswerGate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LogBaseException("interrupted");
      }
      return DropTableResponse.getDefaultInstance();
    });
  }

  @Override
  public void listTables(ListTablesRequest request, StreamObserver<ListTablesResponse> observer) {
    answer(observer, () -> ListTablesResponse.newBuilder().addAllNames(meta.tableNames()).build());
  }

  @Override
  public void describeTable(TableName request, StreamObserver<TableMeta> observer) {
    answer(observer, () -> meta.table(request.getName()));
  }

  @Override
  public void addColumnGroup(AddColumnGroupRequest request, StreamObserver<TableMeta> observer) {
    answer(observer, () -> meta.addColumnGroup(request.getTable(), request.getColumnGroup()));
  }

  @Override
  public void alterColumnGroup(AlterColumnGroupRequest request, StreamObserver<TableMeta> observer) {
    answer(observer, () -> meta.alterColumnGroup(request));
  }

  @Override
  public void compactTable(CompactTableRequest request, StreamObserver<CompactTableResponse> observer) {
    answer(observer, () -> {
      CompactTableResponse.Builder b = CompactTableResponse.newBuilder();
      for (TabletLocation t : meta.table(request.getTable()).getTabletsList()) {
        int id = t.getTablet().getTabletId();
        TabletCompaction.Builder c = TabletCompaction.newBuilder().setTabletId(id).setServerId(t.getServerId());
        long in = 1000L * (id + 1);
        b.addTablets(t.getServerId().equals(failingCompactions)
            ? c.setError("tablet " + request.getTable() + "/" + id + " was not compacted: this tablet server cannot"
                + " compact: its disk is full (a fake server)")
            : c.setStats(CompactionStats.newBuilder().setBytesIn(in).setBytesOut(in / 4).setVersionsIn(10)
                .setVersionsOut(4).setVersionsDropped(6).setSegments(1).setMillis(5)));
      }
      return b.build();
    });
  }

  @Override
  public void getTabletLocations(TableName request, StreamObserver<TableMeta> observer) {
    answer(observer, () -> {
      countLocationLookup();
      return meta.table(request.getName());
    });
  }

  @Override
  public void getTimestamps(TimestampRequest request, StreamObserver<TimestampRange> observer) {
    answer(observer, () -> {
      int count = TimestampRequests.checkCount(request.getCount());
      timestampCalls.add(count);
      try {
        timestampGate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LogBaseException("interrupted");
      }
      return TimestampRange.newBuilder().setFirst(meta.nextTimestamps(count)).setCount(count).build();
    });
  }

  @Override
  public void clusterStatus(ClusterStatusRequest request, StreamObserver<ClusterStatusResponse> observer) {
    answer(observer, () -> {
      ClusterStatusResponse.Builder b = ClusterStatusResponse.newBuilder()
          .setActiveMaster(address)
          .addAllMasters(meta.masters())
          .setTables(meta.tableNames().size());
      for (Map.Entry<String, String> s : meta.servers().entrySet()) {
        var tablets = meta.tabletsOf(s.getKey());
        b.addServers(ServerStatus.newBuilder()
            .setServerId(s.getKey())
            .setAddress(s.getValue())
            .setLive(true)
            .addAllTablets(tablets)
            .setLoad(ServerLoad.newBuilder().setTablets(tablets.size()).setRequests(42).setRequestsPerSecond(1.5)
                .setLogBytes(3L << 20).setLastCompaction(failingCompactions.equals(s.getKey())
                    ? "t/1 at 2026-11-25T10:00:00Z: not compacted, its disk is full" : "")));
      }
      return b.build();
    });
  }
}
