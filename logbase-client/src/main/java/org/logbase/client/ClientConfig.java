package org.logbase.client;

/**
 * Settings keys read only by the client, in addition to the shared ones in
 * {@link org.logbase.common.ClusterConfig} ({@code zookeeper.connect}, {@code zookeeper.root},
 * {@code rpc.deadline.ms}, {@code rpc.max.message.bytes}).
 */
public final class ClientConfig {
  /**
   * How long a client that has not reached ZooKeeper yet tries before its requests fail with
   * {@link ZooKeeperUnreachableException} (ms). Once connected, outages are ridden through until
   * each request's deadline.
   */
  public static final String ZK_CONNECT_TIMEOUT_MS = "client.zookeeper.connect.timeout.ms";
  public static final long DEFAULT_ZK_CONNECT_TIMEOUT_MS = 5000;
  /** First pause before retrying a request that failed retriably (ms). */
  public static final String RETRY_INITIAL_MS = "client.retry.initial.ms";
  public static final long DEFAULT_RETRY_INITIAL_MS = 50;
  /** Longest pause between retries; pauses double up to it (ms). */
  public static final String RETRY_MAX_MS = "client.retry.max.ms";
  public static final long DEFAULT_RETRY_MAX_MS = 1000;
  /**
   * Longest wait for one attempt of a get or a single-row write (ms). A server that does not answer
   * in time (paused, or overloaded) is taken as gone for this request: the tablet is looked up
   * again and the request sent anew, so a tablet that moved off a paused server is reached at its
   * new owner. Writes retried this way are blind puts and deletes, which may be repeated;
   * transaction commits never are.
   */
  /**
   * A transaction open longer than this holds its snapshot at the master (HoldSnapshot), so that
   * compaction keeps the versions it reads; shorter ones are within the servers' retention window.
   */
  public static final String SNAPSHOT_LEASE_AFTER_MS = "client.snapshot.lease.after.ms";
  public static final long DEFAULT_SNAPSHOT_LEASE_AFTER_MS = 30_000;
  public static final String ATTEMPT_TIMEOUT_MS = "client.attempt.timeout.ms";
  public static final long DEFAULT_ATTEMPT_TIMEOUT_MS = 5000;
  /** How many tablets a scan streams at once: the current one plus those fetched ahead. */
  public static final String SCAN_PREFETCH_TABLETS = "client.scan.prefetch.tablets";
  public static final int DEFAULT_SCAN_PREFETCH_TABLETS = 2;
  /** Batches a scan stream may hold unread before the server is asked for more (flow control). */
  public static final String SCAN_BUFFERED_BATCHES = "client.scan.buffered.batches";
  public static final int DEFAULT_SCAN_BUFFERED_BATCHES = 2;

  /**
   * Whether single-row puts and deletes that threads make at the same time to one tablet travel
   * together in one request (each still its own atomic write, each caller still waits for its own).
   */
  public static final String WRITE_COALESCE = "client.write.coalesce";
  public static final boolean DEFAULT_WRITE_COALESCE = true;
  /** Requests one tablet may have outstanding before further writes to it wait to go together. */
  public static final String WRITE_IN_FLIGHT_PER_TABLET = "client.write.in.flight.per.tablet";
  public static final int DEFAULT_WRITE_IN_FLIGHT_PER_TABLET = 1;
  /** Most writes that travel together in one request. */
  public static final String WRITE_BATCH_MAX_ROWS = "client.write.batch.max.rows";
  public static final int DEFAULT_WRITE_BATCH_MAX_ROWS = 256;

  /** Attempts {@link LogBaseClient#inTransaction} makes before it gives up on conflicts. */
  public static final String TXN_RETRY_ATTEMPTS = "client.txn.retry.attempts";
  public static final int DEFAULT_TXN_RETRY_ATTEMPTS = 10;

  private ClientConfig() {}
}
