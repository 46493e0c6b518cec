package org.logbase.tabletserver.server;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.logbase.client.LogBaseClient;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.Echo;
import org.logbase.common.Failures;
import org.logbase.common.Jmx;
import org.logbase.common.ZkPaths;
import org.logbase.common.ZooKeeperClients;
import org.logbase.common.rpc.GrpcServerLogging;
import org.logbase.compaction.TabletCompaction;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.ServerLoad;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.txn.LockManagers;
import org.logbase.txn.TxnManager;
import org.logbase.txn.TxnSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A tablet server process: opens (recovers) its storage engine under {@code <fs root>/servers/<id>},
 * serves clients and the master over gRPC, registers in ZooKeeper and heartbeats to the active
 * master. It stops serving the moment its ZooKeeper session is lost, or its log stops taking writes
 * for good, and then exits.
 */
@Command(name = "tabletserver", mixinStandardHelpOptions = true, description = "Run a LogBase tablet server.")
public final class TabletServer implements Callable<Integer>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TabletServer.class);
  /** Interval of heartbeats to the active master. */
  public static final String HEARTBEAT_MS = "tabletserver.heartbeat.interval.ms";
  /**
   * How long closing a tablet (to move, split or drop it) waits for the writes and transactions in
   * progress on its rows before it gives up and the tablet goes on serving here.
   */
  public static final String CLOSE_DRAIN_MS = "tabletserver.close.drain.ms";
  static final long DEFAULT_CLOSE_DRAIN_MS = 10_000;

  @Option(names = "--id", required = true, description = "Stable id of this server; its log lives under <fs root>/servers/<id>.")
  String id;

  @Option(names = "--host", description = "Host name clients reach this server at (default: ${DEFAULT-VALUE}).")
  String host = "localhost";

  @Option(names = "--port", description = "RPC port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port = 16020;

  @Option(names = "--advertise", paramLabel = "HOST:PORT", description = "Address registered for clients, masters"
      + " and other servers to reach this server at, when they reach it through a proxy or address translation"
      + " (default: --host and the port bound).")
  String advertise;

  @Option(names = "--config", description = "Settings file (default: conf/logbase.properties when it exists).")
  Path configFile = Path.of("conf/logbase.properties");

  @Option(names = "--zookeeper", description = "ZooKeeper connect string (overrides zookeeper.connect).")
  String zookeeper;

  @Option(names = "--fs-root", description = "Shared file system root, file:// or hdfs:// (overrides logbase.fs.root).")
  String fsRoot;

  private StorageEngine engine;
  private Server rpc;
  private CuratorFramework zk;
  private Heartbeater heartbeater;
  private CompactionScheduler compactions;
  private DroppedTableCloser droppedTables;
  private LogFileSize logFileSize;
  private ServedTablets tablets;
  private ServingLease lease;
  private LogBaseClient cluster;
  private TxnManager txns;
  private TabletServiceImpl service;
  private OpenScans scans;
  private final WritePathStats writeStats = new WritePathStats();
  private Jmx.Registration published;
  private final CountDownLatch stopped = new CountDownLatch(1);

  /** Changes the transaction settings read from the configuration (identity in the product). */
  private final UnaryOperator<TxnSettings> txnSettings;

  public TabletServer() {
    this(UnaryOperator.identity());
  }

  /**
   * A server whose transaction settings are changed after they are read: how a test runs a
   * deliberately broken variant (validation off, readers that do not wait) as a real process, with
   * nothing in the configuration that could switch the product off by mistake.
   */
  public TabletServer(UnaryOperator<TxnSettings> txnSettings) {
    this.txnSettings = txnSettings;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new TabletServer()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Config config = Files.exists(configFile) ? Config.load(configFile) : Config.empty();
    if (zookeeper != null) {
      config = config.with(ClusterConfig.ZK_CONNECT, zookeeper);
    }
    if (fsRoot != null) {
      config = config.with(ClusterConfig.FS_ROOT, fsRoot);
    }
    start(config);
    Runtime.getRuntime().addShutdownHook(new Thread(this::close, "shutdown"));
    stopped.await();
    return tablets.isServing() ? 0 : 2;
  }

  /** A host:port to register, or a clear refusal. */
  static String checkedAddress(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    String p = colon < 0 ? "" : hostPort.substring(colon + 1);
    if (colon < 1 || !p.matches("[0-9]{1,5}") || Integer.parseInt(p) < 1 || Integer.parseInt(p) > 65535) {
      throw new IllegalArgumentException("--advertise '" + Echo.of(hostPort) + "' is not HOST:PORT with a port from 1"
          + " to 65535");
    }
    return hostPort;
  }

  /** Starts a tablet server in this JVM (the standalone cluster, tests). */
  public static TabletServer start(Config config, String id, String host, int port) throws Exception {
    TabletServer s = new TabletServer();
    s.id = id;
    s.host = host;
    s.port = port;
    s.start(config);
    return s;
  }

  /**
   * Starts serving; returns once the server is registered and accepting requests. If starting fails
   * (port taken, ZooKeeper or the file system unreachable), everything started so far is closed
   * again before the failure is thrown, so an embedding process is left with no stray threads.
   */
  public void start(Config config) throws Exception {
    if (advertise != null) {
      checkedAddress(advertise); // refused before anything starts
    }
    try {
      startParts(config);
    } catch (Exception | Error e) {
      LOG.error("tablet server {} failed to start: {}", id, e.toString());
      try {
        close();
      } catch (RuntimeException closing) {
        Failures.suppress(e, closing);
      }
      throw e;
    }
  }

  private void startParts(Config config) throws Exception {
    String root = config.getString(ClusterConfig.FS_ROOT, null);
    if (root == null) {
      throw new IllegalArgumentException(ClusterConfig.FS_ROOT + " is not set: where do logs live (file:// or hdfs://)?");
    }
    URI serverRoot = URI.create(root.replaceAll("/+$", "") + "/servers/" + id);
    // The server's own client: timestamps from the oracle, and the primaries of in-doubt transactions.
    cluster = LogBaseClient.connect(config);
    OracleTimestamps oracle = new OracleTimestamps(cluster.timestamps(), writeStats);
    published = Jmx.register(writeStats, "TabletServer", "WritePath");
    int sessionMs = config.getInt(ClusterConfig.ZK_SESSION_TIMEOUT_MS, ClusterConfig.DEFAULT_ZK_SESSION_TIMEOUT_MS);
    zk = ZooKeeperClients.connect(config);
    ZkPaths paths = ZkPaths.from(config);
    // Tablet manifests and checkpoints go to <fs root>/tablets, where whichever server opens a tablet next finds them.
    lease = new ServingLease(zk, paths.server(id), this::sessionLost);
    // Before the log is touched: recovery seals its segments, and a second process of this id (a
    // double start, a stale pid file) that sealed a live server's log would lose every write the
    // live one acknowledged after the seal.
    String claim = paths.serverClaim(id);
    EphemeralClaim.take(zk, claim, "pid " + ProcessHandle.current().pid() + " on " + host, Duration.ofMillis(3L * sessionMs),
        "tablet server id '" + id + "'");
    // A NameNode in safe mode (restarted with the cluster, or alone) would fail the recovery, and
    // one killed during it fails it too: the recovery waits for the file system, and runs again.
    EngineOptions options = EngineOptions.of(serverRoot, config, List.of())
        .withShared(URI.create(root.replaceAll("/+$", ""))).withClock(oracle)
        .withFileIds(lease.guard(new ZooKeeperFileIds(zk, paths.fileIds())))
        .withFileSystem(fs -> new LeasedFileSystem(fs, lease))
        .withOtherLogs(new DeadServerLogs(zk, paths))
        .withLogSeals(new ZooKeeperLogSeals(zk, paths))
        .withDroppedTables(new ZooKeeperDroppedTables(zk, paths));
    engine = FileSystemWait.openWhenReady(serverRoot, new Configuration(),
        Duration.ofMillis(config.getLong(FileSystemWait.WAIT_MS, FileSystemWait.DEFAULT_WAIT_MS)),
        () -> StorageEngine.open(options));
    tablets = new ServedTablets(engine, new ZooKeeperAssignments(zk, paths, id));
    engine.logStopped().thenAccept(this::logStopped);
    Calls calls = new Calls(() -> {
      tablets.checkServing();
      lease.checkAnswering();
    });
    txns = new TxnManager(engine, LockManagers.create(config, zk, paths), oracle, tablets::findByKey,
        (txn, table, key) -> {
          long ts = cluster.resolveTransaction(txn, table, key);
          return ts < 0 ? TxnManager.Outcome.ABORTED : new TxnManager.Outcome(true, ts);
        }, txnSettings.apply(TxnSettings.from(config)));
    scans = new OpenScans(tablets::serves, config);
    scans.start();
    // A quarter of the message limit: room for the batch's framing, and for a row over the share.
    service = new TabletServiceImpl(tablets, txns, writeStats, calls, scans,
        config.getBytes(ClusterConfig.RPC_MAX_MESSAGE_BYTES, ClusterConfig.DEFAULT_RPC_MAX_MESSAGE_BYTES) / 4);
    TabletCompactor compactor = new TabletCompactor(tablets, TabletCompaction.threadNice(config));
    long drainMs = config.getLong(CLOSE_DRAIN_MS, DEFAULT_CLOSE_DRAIN_MS);
    TabletCloser closer = new TabletCloser(tablets, txns, drainMs);
    compactions = new CompactionScheduler(tablets, compactor, config);
    GrpcServerLogging.install();
    rpc = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .maxInboundMessageSize(Math.toIntExact(config.getBytes(ClusterConfig.RPC_MAX_MESSAGE_BYTES,
            ClusterConfig.DEFAULT_RPC_MAX_MESSAGE_BYTES)))
        .addService(service)
        .addService(new TabletAdminServiceImpl(tablets, txns, calls, drainMs, compactor, closer,
            MasterEpochFence.zooKeeper(zk, paths)))
        .build();
    rpc.start(); // assigned first, so that close() shuts it down if binding fails
    String address = advertise != null ? advertise : host + ":" + rpc.getPort();

    if (!EphemeralClaim.held(zk, claim)) {
      throw new IllegalStateException("tablet server " + id + " lost its ZooKeeper session while it recovered its log;"
          + " start it again");
    }
    new ServerRegistration(zk, paths, id).register(address, Duration.ofMillis(3L * sessionMs), this::sessionLost);
    lease.arm();

    long[] last = {0, System.nanoTime()};
    long startedMs = System.currentTimeMillis();
    logFileSize = new LogFileSize(serverRoot);
    heartbeater = new Heartbeater(zk, paths, id, address, () -> {
      long now = System.nanoTime();
      long requests = service.requests();
      double perSecond = (requests - last[0]) / Math.max(1e-9, (now - last[1]) / 1e9);
      last[0] = requests;
      last[1] = now;
      return HeartbeatRequest.newBuilder()
          .setLoad(ServerLoad.newBuilder().setTablets(tablets.count()).setRequests(requests)
              .setRequestsPerSecond(perSecond).setLogBytes(engine.logStats().bytes()).setLocks(txns.locks().size())
              .setLogFileBytes(logFileSize.bytes()).setStartedMs(startedMs).setUnknownDecides(txns.unknownDecides())
              .setLastCompaction(compactor.lastOutcome()))
          .addAllServing(tablets.serving()).addAllTabletLoads(tablets.loads());
    }, oracle::heldSnapshots);
    heartbeater.start(config.getLong(HEARTBEAT_MS, 3000));
    compactions.start();
    droppedTables = new DroppedTableCloser(zk, paths, closer);
    droppedTables.start();
    LOG.info("tablet server {} serving at {}", id, address);
    System.out.println("TABLETSERVER READY " + id + " " + address);
    System.out.flush();
  }

  private void sessionLost() {
    tablets.stop("ZooKeeper session lost");
    stopped.countDown();
  }

  /**
   * The log stopped taking writes for good (a failure applying a durable batch, a bug met writing
   * one): nothing here brings it back, and a server that kept its session would keep its tablets
   * and refuse their writes until an operator restarted it. It stops serving and, run as a process,
   * exits (status 2, as after a lost session), so that the master moves its tablets and their new
   * servers recover them from its log. Embedded (the standalone cluster, tests) it only stops
   * serving, as after a lost session; its embedder decides.
   */
  private void logStopped(Throwable cause) {
    LOG.error("the log stopped taking writes for good ({}): stopping this server, so that its tablets are recovered"
        + " from its log elsewhere", String.valueOf(cause));
    tablets.stop("its log stopped taking writes: " + cause);
    stopped.countDown();
  }

  /** For tests: the ZooKeeper client, whose session a test may kill. */
  CuratorFramework zk() {
    return zk;
  }

  /** Client requests served so far (each RPC counts once, however many rows it carries). */
  long requestsServed() {
    return service.requests();
  }

  /** Whether requests are still being served (false once stopping or after session loss). */
  /** Long reads (scan calls) in progress on this server's engine. */
  int readsInProgress() {
    return engine.reads().size();
  }

  /** Scan calls open on this server. */
  int scansOpen() {
    return scans.size();
  }

  boolean tabletsServing() {
    return tablets.isServing();
  }

  /** Waits until the server stopped serving (shutdown or session loss); false on timeout. */
  public boolean awaitStopped(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The RPC port actually bound. */
  public int port() {
    return rpc.getPort();
  }

  @Override
  public synchronized void close() {
    if (tablets != null && tablets.isServing()) {
      tablets.stop("shutting down");
    }
    if (heartbeater != null) {
      heartbeater.close();
    }
    if (compactions != null) {
      compactions.close();
    }
    if (droppedTables != null) {
      droppedTables.close();
    }
    if (lease != null) {
      lease.close();
    }
    if (logFileSize != null) {
      try {
        logFileSize.close();
      } catch (IOException e) {
        LOG.warn("closing the file system of the log's size failed: {}", e.toString());
      }
    }
    if (rpc != null) {
      rpc.shutdown();
      try {
        rpc.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      rpc.shutdownNow();
    }
    if (scans != null) {
      scans.close();
    }
    if (tablets != null) {
      try {
        tablets.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (txns != null) {
      txns.close();
    }
    if (published != null) {
      published.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (zk != null) {
      zk.close();
    }
    if (engine != null) {
      try {
        engine.close();
      } catch (IOException e) {
        LOG.error("closing the storage engine failed", e);
      }
      engine = null;
    }
    stopped.countDown();
  }
}
