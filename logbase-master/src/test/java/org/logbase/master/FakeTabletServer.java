package org.logbase.master;

import com.google.protobuf.ByteString;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.logbase.common.LogBaseException;
import org.logbase.common.ZkPaths;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.CloseTabletRequest;
import org.logbase.rpc.CloseTabletResponse;
import org.logbase.rpc.CompactTabletRequest;
import org.logbase.rpc.CompactTabletResponse;
import org.logbase.rpc.CompactionStats;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.OpenTabletResponse;
import org.logbase.rpc.OpenTabletsRequest;
import org.logbase.rpc.OpenTabletsResponse;
import org.logbase.rpc.SplitTabletRequest;
import org.logbase.rpc.SplitTabletResponse;
import org.logbase.rpc.TabletAdminServiceGrpc;
import org.logbase.rpc.TabletRef;

/**
 * A stand-in tablet server: a real gRPC TabletAdminService on a real port that records the
 * tablets it is asked to open (OpenTablets, and the older OpenTablet) and the CloseTablet calls it gets
 * (and can be told to fail the opens or answer that it left them out, and to hold or fail the closes), answers SplitTablet with the key, answers CompactTablet with canned numbers after a pause (or
 * fails it as a server whose disk is full would) and records how many ran at once, registered as live by an ephemeral znode under
 * {@link ZkPaths#servers()} like a real one.
 */
final class FakeTabletServer implements AutoCloseable {
  private final String id;
  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final List<OpenTabletRequest> opens = new CopyOnWriteArrayList<>();
  private final List<Integer> batches = new CopyOnWriteArrayList<>();
  private final List<CloseTabletRequest> closes = new CopyOnWriteArrayList<>();
  private final Server server;
  private final List<CompactTabletRequest> compactions = new CopyOnWriteArrayList<>();
  /** Compactions running now and the most at once (guarded by itself). */
  private final int[] compacting = new int[2];
  private final List<SplitTabletRequest> splits = new CopyOnWriteArrayList<>();
  /** CloseTablet calls wait for it (let go: answered at once). */
  private volatile CountDownLatch closeGate = new CountDownLatch(0);
  /** OpenTablets calls wait for it (let go: answered at once). */
  private volatile CountDownLatch openGate = new CountDownLatch(0);
  private volatile boolean failCloses;
  private volatile boolean failOpens;
  private volatile boolean leaveOutOpens;
  private volatile boolean failCompactions;

  private FakeTabletServer(String id, CuratorFramework zk, ZkPaths paths) throws Exception {
    this.id = id;
    this.zk = zk;
    this.paths = paths;
    server = NettyServerBuilder.forAddress(new InetSocketAddress("localhost", 0))
        .addService(new TabletAdminServiceGrpc.TabletAdminServiceImplBase() {
          @Override
          public void openTablet(OpenTabletRequest request, StreamObserver<OpenTabletResponse> out) {
            opens.add(request);
            if (failOpens) {
              out.onError(Status.UNAVAILABLE.withDescription("fake: cannot open now").asRuntimeException());
              return;
            }
            out.onNext(OpenTabletResponse.getDefaultInstance());
            out.onCompleted();
          }

          @Override
          public void openTablets(OpenTabletsRequest request, StreamObserver<OpenTabletsResponse> out) {
            opens.addAll(request.getTabletsList());
            batches.add(request.getTabletsCount());
            awaitGate(openGate);
            if (failOpens) {
              out.onError(Status.UNAVAILABLE.withDescription("fake: cannot open now").asRuntimeException());
              return;
            }
            OpenTabletsResponse.Builder answer = OpenTabletsResponse.newBuilder();
            if (leaveOutOpens) {
              request.getTabletsList().forEach(o -> answer.addLeftOut(TabletRef.newBuilder()
                  .setTable(o.getTable().getName()).setTableId(o.getTable().getId()).setTabletId(o.getTablet().getTabletId())));
            }
            out.onNext(answer.build());
            out.onCompleted();
          }

          @Override
          public void compactTablet(CompactTabletRequest request, StreamObserver<CompactTabletResponse> out) {
            compactions.add(request);
            awaitOverlap();
            if (failCompactions) {
              out.onError(RpcErrors.toStatus(new LogBaseException("tablet " + request.getTable() + "/"
                  + request.getTabletId() + " was not compacted: its disk is full (a fake server)")));
              return;
            }
            long in = 1000L * (request.getTabletId() + 1);
            out.onNext(CompactTabletResponse.newBuilder().setStats(CompactionStats.newBuilder().setBytesIn(in)
                .setBytesOut(in / 4).setVersionsIn(10).setVersionsOut(4).setVersionsDropped(6).setSegments(1)
                .setHorizon(77).setMillis(COMPACTION_MS)).build());
            out.onCompleted();
          }

          @Override
          public void closeTablet(CloseTabletRequest request, StreamObserver<CloseTabletResponse> out) {
            closes.add(request);
            awaitGate(closeGate);
            if (failCloses) {
              out.onError(Status.UNAVAILABLE.withDescription("fake: could not close").asRuntimeException());
              return;
            }
            out.onNext(CloseTabletResponse.getDefaultInstance());
            out.onCompleted();
          }

          @Override
          public void splitTablet(SplitTabletRequest request, StreamObserver<SplitTabletResponse> out) {
            splits.add(request);
            ByteString key = request.getSplitKey().isEmpty() ? ByteString.copyFromUtf8("m") : request.getSplitKey();
            out.onNext(SplitTabletResponse.newBuilder().setSplitKey(key).build());
            out.onCompleted();
          }
        })
        .build()
        .start();
  }

  /** How long a fake compaction waits for another one to arrive on this server. */
  static final int COMPACTION_MS = 50;

  /**
   * A fake compaction: it runs until a second one arrives on this server while it does (which the
   * master must never send: one at a time per server) or for at most {@link #COMPACTION_MS}; the
   * most seen at once is recorded.
   */
  private void awaitOverlap() {
    synchronized (compacting) {
      compacting[0]++;
      compacting[1] = Math.max(compacting[1], compacting[0]);
      compacting.notifyAll();
      long deadline = System.nanoTime() + COMPACTION_MS * 1_000_000L;
      try {
        long left = COMPACTION_MS;
        while (compacting[0] < 2 && left > 0) {
          compacting.wait(left);
          left = (deadline - System.nanoTime()) / 1_000_000;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        compacting[0]--;
      }
    }
  }

  /** Starts the fake and registers it as live. */
  static FakeTabletServer start(String id, CuratorFramework zk, ZkPaths paths) throws Exception {
    FakeTabletServer s = new FakeTabletServer(id, zk, paths);
    s.register();
    return s;
  }

  String id() {
    return id;
  }

  String address() {
    return "localhost:" + server.getPort();
  }

  List<OpenTabletRequest> opens() {
    return opens;
  }

  /** The sizes of the OpenTablets requests received, in order. */
  List<Integer> openBatches() {
    return batches;
  }

  List<CloseTabletRequest> closes() {
    return closes;
  }

  /** OpenTablet calls received for {@code table}'s tablet {@code tabletId}. */
  List<OpenTabletRequest> opensOf(String table, int tabletId) {
    return opens.stream()
        .filter(o -> o.getTable().getName().equals(table) && o.getTablet().getTabletId() == tabletId)
        .toList();
  }

  /** SplitTablet calls received; each is answered with its key, or "m" when it has none. */
  List<SplitTabletRequest> splits() {
    return splits;
  }

  private static void awaitGate(CountDownLatch gate) {
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("fake: a held call was never let go");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** OpenTablets calls from now on are recorded and then wait until {@link #letOpensGo}. */
  void holdOpens() {
    openGate = new CountDownLatch(1);
  }

  void letOpensGo() {
    openGate.countDown();
  }

  /** CloseTablet calls from now on are recorded and then wait until {@link #letClosesGo}. */
  void holdCloses() {
    closeGate = new CountDownLatch(1);
  }

  void letClosesGo() {
    closeGate.countDown();
  }

  /** Whether CloseTablet calls fail (they are recorded either way). */
  void failCloses(boolean fail) {
    failCloses = fail;
  }

  /** OpenTablets answers that it left every tablet out, as a server whose ZooKeeper check refused them. */
  void leaveOutOpens(boolean leaveOut) {
    leaveOutOpens = leaveOut;
  }

  /** Whether OpenTablet calls fail (they are recorded either way). */
  void failOpens(boolean fail) {
    failOpens = fail;
  }

  List<CompactTabletRequest> compactions() {
    return compactions;
  }

  /** The most CompactTablet calls it was in at the same time. */
  int mostCompactingAtOnce() {
    synchronized (compacting) {
      return compacting[1];
    }
  }

  /** Whether CompactTablet calls fail (they are recorded either way). */
  void failCompactions(boolean fail) {
    failCompactions = fail;
  }

  void register() throws Exception {
    zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
        .forPath(paths.server(id), address().getBytes(StandardCharsets.UTF_8));
  }

  /** Removes the live znode, as the end of the server's session would. */
  void unregister() throws Exception {
    zk.delete().forPath(paths.server(id));
  }

  @Override
  public void close() throws InterruptedException {
    try {
      if (zk.checkExists().forPath(paths.server(id)) != null) {
        unregister();
      }
    } catch (Exception e) {
      // The test's ZooKeeper client may be closed already; the znode goes with its session.
    }
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
