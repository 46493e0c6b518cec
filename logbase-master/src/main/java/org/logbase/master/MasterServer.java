package org.logbase.master;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.Threads;
import org.logbase.common.ZkPaths;
import org.logbase.common.ZooKeeperClients;
import org.logbase.common.rpc.GrpcServerLogging;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A LogBase master process: serves {@code MasterService} over gRPC and takes part in the election
 * of the active master (see {@link MasterElection}). Any number of masters may run; one is active,
 * the others stand by and refuse everything but ClusterStatus with NOT_ACTIVE_MASTER. The active
 * master is also the cluster's timestamp oracle ({@link TimestampOracle}).
 *
 * <p>Prints {@code MASTER READY host:port} on stdout once it serves RPCs and
 * {@code MASTER ACTIVE host:port} when it becomes the active master. If its ZooKeeper session is
 * lost it stops at once with exit status 1 ({@link #awaitExit()}); an operator restarts it, and it
 * comes back as a standby.
 */
public final class MasterServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterServer.class);
  /** Deadline of OpenTablet and CloseTablet calls to tablet servers. */
  static final Duration TABLET_COMMAND_DEADLINE = Duration.ofSeconds(30);
  private static final Duration RPC_DRAIN = Duration.ofSeconds(2);
  /**
   * How long a newly active master waits for a tablet server it has not seen live to register
   * before it moves that server's tablets elsewhere (a server seen live and then lost is moved from
   * at once).
   */
  public static final String FAILOVER_STARTUP_GRACE_MS = "master.failover.startup.grace.ms";
  static final long DEFAULT_FAILOVER_STARTUP_GRACE_MS = 30_000;
  /** How often the active master looks for dead tablet servers. */
  static final Duration FAILOVER_SWEEP = Duration.ofMillis(250);
  /** How often the balancer looks at the cluster (a joining server gets tablets within this). */
  public static final String BALANCER_INTERVAL_MS = "master.balancer.interval.ms";
  static final long DEFAULT_BALANCER_INTERVAL_MS = 5000;

  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final int maxMessageBytes;
  private final TabletServerClients tabletServers;
  private final MasterElection election;
  private final MasterRpcService rpc;
  private final AssignmentReconciler reconciler;
  private final TimestampOracle oracle;
  private final TabletFailover failover;
  private final SnapshotLeases snapshots;
  private final MasterEpoch epoch;
  private final ScheduledExecutorService sweeper =
      Executors.newSingleThreadScheduledExecutor(Threads.daemon("master-failover"));
  private final Balancer balancer;
  private final long balancerIntervalMs;
  /** Moves take seconds: the balancer has its own thread, so failover sweeps never wait for one. */
  private final ScheduledExecutorService balancing =
      Executors.newSingleThreadScheduledExecutor(Threads.daemon("master-balancer"));
  /** Calls that arrived on a network thread and must wait (a timestamp bound renewal). */
  private final ExecutorService blockingCalls = Executors.newCachedThreadPool(Threads.daemon("master-blocking-call"));
  private final PrintStream out;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile Server grpc;
  private volatile String address = "";
  private volatile int exitStatus;

  private MasterServer(Config config, CuratorFramework zk, PrintStream out, LongSupplier wallMillis) {
    this.zk = zk;
    this.out = out;
    paths = ZkPaths.from(config);
    maxMessageBytes = Math.toIntExact(config.getBytes(
        ClusterConfig.RPC_MAX_MESSAGE_BYTES, ClusterConfig.DEFAULT_RPC_MAX_MESSAGE_BYTES));
    epoch = new MasterEpoch(zk, paths);
    tabletServers = new TabletServerClients(maxMessageBytes, TABLET_COMMAND_DEADLINE, epoch::current);
    TableStore tables = new TableStore(zk, paths, epoch);
    LiveServers liveServers = new LiveServers(zk, paths);
    TabletCommands commands = new TabletCommands(tabletServers);
    ServerLoads loads = new ServerLoads(System::nanoTime);
    snapshots = new SnapshotLeases(config.getLong(SnapshotLeases.LEASE_MS, SnapshotLeases.DEFAULT_LEASE_MS),
        System::nanoTime);
    DrainingServers draining = new DrainingServers(zk, paths);
    BalancerSwitch balancerSwitch = new BalancerSwitch(zk, paths);
    failover = new TabletFailover(tables, liveServers, draining, commands,
        Duration.ofMillis(config.getLong(FAILOVER_STARTUP_GRACE_MS, DEFAULT_FAILOVER_STARTUP_GRACE_MS)), System::nanoTime);
    TabletMoves moves = new TabletMoves(tables, liveServers, draining, commands, failover.lock(), TABLET_COMMAND_DEADLINE);
    TabletSplits splits = new TabletSplits(tables, liveServers, commands, moves, failover.lock(), TABLET_COMMAND_DEADLINE,
        TableLimits.from(config));
    reconciler = new AssignmentReconciler(tables, liveServers, commands, failover);
    oracle = new TimestampOracle(new TimestampBoundZnode(zk, paths), wallMillis, BoundPolicy.from(config));
    election = new MasterElection(zk, paths, new RoleChanges());
    rpc = new MasterRpcService(election,
        new TableCatalog(tables, new TableIdCounter(zk, paths), liveServers, draining, commands,
            TableLimits.from(config), failover.lock(), new DoneDrops(zk, paths)),
        reconciler, loads,
        new ClusterStatusReport(election, liveServers, tables, loads, draining, balancerSwitch), oracle,
        TABLET_COMMAND_DEADLINE, blockingCalls, new ClusterAdmin(tables, liveServers, draining, balancerSwitch, moves, splits),
        new TableCompactions(tables, liveServers, tabletServers), snapshots);
    balancer = new Balancer(tables, liveServers, draining, balancerSwitch, moves, splits, loads, BalancePlanner.from(config),
        AutoSplits.from(config), election::isActive);
    balancerIntervalMs = config.getLong(BALANCER_INTERVAL_MS, DEFAULT_BALANCER_INTERVAL_MS);
  }

  /**
   * Connects to ZooKeeper, starts serving on {@code host:port} (0 = any free port) and joins the
   * election. Returns once RPCs are served; whether this master is active is decided afterwards.
   *
   * @param out where the READY and ACTIVE lines go (stdout for a process)
   */
  public static MasterServer start(Config config, String host, int port, PrintStream out) throws Exception {
    return start(config, host, port, out, System::currentTimeMillis);
  }

  /** {@link #start(Config, String, int, PrintStream)} with the timestamp oracle's wall clock given (tests). */
  static MasterServer start(Config config, String host, int port, PrintStream out, LongSupplier wallMillis)
      throws Exception {
    CuratorFramework zk = ZooKeeperClients.connect(config);
    MasterServer master = null;
    try {
      master = new MasterServer(config, zk, out, wallMillis);
      master.serve(host, port);
      return master;
    } catch (Exception | Error e) {
      if (master != null) {
        master.close();
      } else {
        zk.close();
      }
      throw e;
    }
  }

  /** host:port this master serves on and takes part in the election as. */
  public String address() {
    return address;
  }

  /** Whether this master is the active one now. */
  public boolean isActive() {
    return election.isActive();
  }

  /**
   * Waits until this master has stopped: 0 after {@link #close()}, 1 after it lost its ZooKeeper
   * session or failed to take over. A process exits with this status.
   */
  public int awaitExit() throws InterruptedException {
    stopped.await();
    return exitStatus;
  }

  /** Leaves the election (a standby takes over at once), stops serving and disconnects. */
  @Override
  public void close() {
    shutdown(0);
  }

  /** The ZooKeeper client, for tests that expire its session. */
  CuratorFramework zookeeper() {
    return zk;
  }

  private void serve(String host, int port) throws Exception {
    GrpcServerLogging.install();
    createIfAbsent(paths.tables());
    createIfAbsent(paths.servers());
    createIfAbsent(paths.drops());
    grpc = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .maxInboundMessageSize(maxMessageBytes)
        .callExecutor(new ServerCallExecutorSupplier() {
          @Override
          public <Q, A> Executor getExecutor(ServerCall<Q, A> call, Metadata headers) {
            return MasterRpcService.onNetworkThread(call.getMethodDescriptor().getFullMethodName())
                ? MoreExecutors.directExecutor() : null;
          }
        })
        .addService(rpc)
        .build()
        .start();
    // The bound port, not the requested one: with --port 0 this is how the world learns it.
    address = host + ":" + grpc.getPort();
    var unused = sweeper.scheduleWithFixedDelay(this::sweep, FAILOVER_SWEEP.toMillis(), FAILOVER_SWEEP.toMillis(),
        TimeUnit.MILLISECONDS);
    var unused2 = balancing.scheduleWithFixedDelay(this::balance, balancerIntervalMs, balancerIntervalMs,
        TimeUnit.MILLISECONDS);
    election.start(address);
    LOG.info("master {} serving; joined the election", address);
    println("MASTER READY " + address);
  }

  private void sweep() {
    try {
      failover.sweep();
    } catch (Exception e) {
      LOG.warn("looking for dead tablet servers failed: {}; trying again in {} ms", e.toString(),
          FAILOVER_SWEEP.toMillis());
    }
  }

  private void balance() {
    if (!election.isActive()) {
      return;
    }
    try {
      balancer.pass();
    } catch (Exception e) {
      LOG.warn("balancer pass failed: {}; trying again in {} ms", e.toString(), balancerIntervalMs);
    }
  }

  /** Persistent parents that tablet servers and masters list, so an empty cluster lists nothing. */
  private void createIfAbsent(String path) throws Exception {
    try {
      zk.create().creatingParentsIfNeeded().forPath(path);
    } catch (KeeperException.NodeExistsException exists) {
      // Another master or a tablet server made it.
    }
  }

  private void shutdown(int status) {
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    sweeper.shutdownNow();
    balancing.shutdownNow();
    election.close();
    oracle.close();
    Server server = grpc;
    if (server != null) {
      server.shutdown();
      try {
        if (!server.awaitTermination(RPC_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
          server.shutdownNow();
        }
      } catch (InterruptedException e) {
        server.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
    blockingCalls.shutdownNow();
    tabletServers.close();
    zk.close();
    exitStatus = status;
    LOG.info("master {} stopped", address);
    stopped.countDown();
  }

  private void println(String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  /** The election's callbacks: what changes when this master's role does. */
  private final class RoleChanges implements MasterElection.Listener {
    @Override
    public void activating() throws Exception {
      // First: from now on the metadata writes and commands of any earlier master are refused.
      epoch.activate(address);
      // Before answering as active: the oracle must have persisted a bound above the old master's.
      oracle.activate();
      failover.activated();
      snapshots.activated();
      reconciler.reconcileAll();
    }

    @Override
    public void activated() {
      println("MASTER ACTIVE " + address);
    }

    @Override
    public void deactivated() {
      failover.deactivated();
      snapshots.deactivated();
      epoch.deactivate();
      oracle.deactivate();
    }

    @Override
    public void fatal(String reason, Throwable cause) {
      LOG.error("{}: master {} stops (exit status 1) so that it can be restarted as a standby", reason,
          address, cause);
      // Not on the caller's thread: that is Curator's event thread or the election thread, and
      // shutting down waits for both.
      Thread stopper = new Thread(() -> shutdown(1), "master-stop");
      stopper.start();
    }
  }

  // ------------------------------------------------------------------ command line

  /** Runs a master until it stops; the process exits with {@link #awaitExit()}'s status. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Cli()).execute(args));
  }

  @Command(name = "logbase-master", mixinStandardHelpOptions = true,
      description = "Runs a LogBase master: table metadata, tablet assignment, cluster status.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE",
        description = "Properties file with zookeeper.connect, zookeeper.root, zookeeper.session.timeout.ms, ...")
    Path config;

    @Option(names = "--port", defaultValue = "16000",
        description = "Port to serve on; 0 picks a free one (printed on the READY line). Default: ${DEFAULT-VALUE}")
    int port;

    @Option(names = "--host", defaultValue = "localhost",
        description = "Host name to bind and to announce to clients. Default: ${DEFAULT-VALUE}")
    String host;

    @Override
    public Integer call() throws Exception {
      Config settings = config == null ? Config.empty() : Config.load(config);
      MasterServer master = start(settings, host, port, System.out);
      Runtime.getRuntime().addShutdownHook(new Thread(master::close, "master-shutdown-hook"));
      return master.awaitExit();
    }
  }
}
