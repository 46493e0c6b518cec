package org.logbase.client;

import org.logbase.common.rpc.ChannelPool;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.Jmx;

/**
 * A connection to a LogBase cluster: finds the active master through ZooKeeper and talks to the
 * master and the tablet servers over gRPC, one channel per server. Thread-safe; share one per
 * application and close it at the end.
 *
 * <pre>{@code
 * try (LogBaseClient client = LogBaseClient.connect("localhost:2181")) {
 *   client.admin().createTable(
 *       TableDefinition.builder("users").columnGroup("profile", "name", "email").build(),
 *       Bytes.utf8("m"));                                    // two tablets: [-inf, m), [m, +inf)
 *   Table users = client.table("users");
 *   long ts = users.put(Bytes.utf8("alice"), Map.of("name", Bytes.utf8("Alice")));
 *   Row alice = users.get(Bytes.utf8("alice"));              // alice.value("name")
 *   Row before = users.get(Bytes.utf8("alice"), List.of("name"), ts - 1);   // null: time travel
 *   try (Scanner rows = users.scan(ScanSpec.builder().start(Bytes.utf8("a")).limit(10).build())) {
 *     for (Row row : rows) {
 *       System.out.println(Bytes.toStringBinary(row.key()));
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Every operation has a deadline ({@code rpc.deadline.ms}, default 30 s) that covers its
 * retries: requests that meet a moved tablet, a restarting server or a master failover are
 * retried with backoff; other failures are thrown at once as typed
 * {@link org.logbase.common.LogBaseException}s.
 */
public final class LogBaseClient implements AutoCloseable {
  private final CuratorFramework zk;
  private final ChannelPool connections;
  private final Admin admin;
  private final TabletRpc tablets;
  private final Jmx.Registration published;
  private final TimestampClient timestamps;
  private final TxnCoordinator transactions;
  private final SnapshotHolds snapshots;
  private final int runnerAttempts;
  private final long runnerBackoffMs;

  private LogBaseClient(ClientSettings settings) {
    this.zk = CuratorFrameworkFactory.builder()
        .connectString(settings.zkConnect())
        .sessionTimeoutMs(settings.zkSessionTimeoutMs())
        .connectionTimeoutMs((int) Math.min(settings.deadlineMs(), settings.zkSessionTimeoutMs()))
        // One quick retry per read; the caller's Retrier covers longer outages until its deadline.
        .retryPolicy(new RetryOneTime(50))
        // The client only reads one znode: no need to track ensemble reconfigurations in the background.
        .ensembleTracker(false)
        .build();
    this.connections = new ChannelPool(settings.maxMessageBytes());
    Retrier retrier = new Retrier(settings.retryInitialMs(), settings.retryMaxMs());
    MasterRpc master = new MasterRpc(
        new MasterLocator(zk, settings.zkPaths().activeMaster(), settings.zkConnectTimeoutMs()), connections, retrier);
    LocationCache locations = new LocationCache(master);
    this.admin = new Admin(master, locations, settings);
    this.tablets = new TabletRpc(locations, connections, retrier, settings);
    this.published = Jmx.register(tablets.writeStats(), "Client", "Writes");
    this.timestamps = new TimestampClient(master, settings);
    this.transactions = new TxnCoordinator(tablets, timestamps);
    this.snapshots = new SnapshotHolds(master, settings);
    this.runnerAttempts = settings.txnRetryAttempts();
    this.runnerBackoffMs = settings.retryInitialMs();
    zk.start(); // connects in the background; the first request waits for it within its deadline
  }

  /** Connects to the cluster whose ZooKeeper ensemble is {@code zkConnect} (host:port[,host:port...]). */
  public static LogBaseClient connect(String zkConnect) {
    return connect(Config.empty().with(ClusterConfig.ZK_CONNECT, zkConnect));
  }

  /**
   * Connects with settings: {@code zookeeper.connect} (required), {@code zookeeper.root},
   * {@code rpc.deadline.ms}, {@code rpc.max.message.bytes} and the {@link ClientConfig} keys.
   */
  public static LogBaseClient connect(Config config) {
    return new LogBaseClient(ClientSettings.from(config));
  }

  /** Table management and cluster status. */
  public Admin admin() {
    return admin;
  }

  /** Fresh timestamps from the cluster's timestamp oracle, batched across this client's threads. */
  public TimestampClient timestamps() {
    return timestamps;
  }

  /**
   * Begins a read-write transaction at a fresh snapshot from the oracle. See {@link Transaction};
   * {@link #inTransaction} adds retries on conflict.
   */
  public Transaction begin() {
    long ts = timestamps.next();
    return new Transaction(transactions, ts, false, snapshots.hold(ts));
  }

  /** Begins a read-only transaction at a fresh snapshot: it takes no locks and never aborts. */
  public Transaction beginReadOnly() {
    return readOnly(timestamps.next());
  }

  /**
   * A read-only transaction reading the database as of a hybrid timestamp in the past (time travel;
   * a timestamp from {@link #timestamps()} or a commit timestamp). One beyond the newest timestamp
   * the oracle has issued is refused: reads there would not repeat as commits land.
   */
  public Transaction snapshotAt(long timestamp) {
    if (timestamp <= 0 || timestamp == org.logbase.common.HybridTimestamp.LATEST) {
      throw new IllegalArgumentException("a snapshot needs a hybrid timestamp, got " + timestamp);
    }
    SnapshotCheck.notInTheFuture(timestamp, timestamps::next);
    return readOnly(timestamp);
  }

  private Transaction readOnly(long timestamp) {
    return new Transaction(transactions, timestamp, true, snapshots.hold(timestamp));
  }

  /** A read-only transaction reading the database as it was at a wall-clock instant. */
  public Transaction snapshotAt(java.time.Instant instant) {
    return snapshotAt(org.logbase.common.HybridTimestamp.atInstant(instant));
  }

  /**
   * Runs {@code body} in a transaction and commits it; on a conflict or an abort runs it again in a
   * new transaction, after a randomised backoff, up to {@code client.txn.retry.attempts} attempts (default 10).
   *
   * @return what the committed attempt returned
   */
  public <T> T inTransaction(TransactionBody<T> body) {
    return new TransactionRunner(this::begin, runnerAttempts, runnerBackoffMs).run(body);
  }

  /**
   * For tablet servers resolving an in-doubt transaction: asks the server of its primary row for the
   * outcome (aborting it there if still undecided). Returns the commit timestamp, or -1 if aborted.
   */
  public long resolveTransaction(long txnId, String primaryTable, byte[] primaryKey) {
    return transactions.resolve(txnId, primaryTable, primaryKey);
  }

  /** For crash tests: lets a test stop this client at points of the commit protocol. */
  public void setFaultInjector(org.logbase.common.FaultInjector faults) {
    transactions.faults(faults);
  }

  /** A handle on a table; no request is sent until it is used. */
  public Table table(String name) {
    return new Table(name, tablets, timestamps::next);
  }

  @Override
  public void close() {
    snapshots.close();
    published.close();
    connections.close();
    zk.close();
  }
}
