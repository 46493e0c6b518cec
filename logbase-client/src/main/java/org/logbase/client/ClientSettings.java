package org.logbase.client;

import io.grpc.Deadline;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.common.Echo;
import org.logbase.common.ZkPaths;

/** The client's settings, read and checked once from a {@link Config}. */
record ClientSettings(
    String zkConnect,
    ZkPaths zkPaths,
    int zkSessionTimeoutMs,
    long zkConnectTimeoutMs,
    long deadlineMs,
    long attemptTimeoutMs,
    int maxMessageBytes,
    long retryInitialMs,
    long retryMaxMs,
    int scanPrefetchTablets,
    int scanBufferedBatches,
    int txnRetryAttempts,
    boolean writeCoalesce,
    int writeInFlightPerTablet,
    int writeBatchMaxRows,
    long snapshotLeaseAfterMs) {

  /**
   * host[:port][,host[:port]...][/chroot], each port a number from 1 to 65535: a typo such as
   * "localhost:abc" was reported as "nothing seems to run there" after a wait.
   */
  static void checkConnectString(String zk) {
    for (ZkHost h : hosts(zk)) {
      String port = h.port();
      boolean portOk = port.matches("[0-9]{1,5}") && Integer.parseInt(port) >= 1 && Integer.parseInt(port) <= 65535;
      if (h.host().isBlank() || !portOk) {
        throw new IllegalArgumentException("invalid ZooKeeper address '" + Echo.of(h.hostPort()) + "' in "
            + ClusterConfig.ZK_CONNECT + " '" + Echo.of(zk) + "': give host:port[,host:port...], each port from 1"
            + " to 65535");
      }
    }
  }

  /** One entry of a ZooKeeper connect string: as written, its host, and its port (2181 if none). */
  record ZkHost(String hostPort, String host, String port) {}

  /** The entries of host[:port][,host[:port]...][/chroot], empty ones included. */
  static List<ZkHost> hosts(String connectString) {
    int slash = connectString.indexOf('/');
    String hosts = slash < 0 ? connectString : connectString.substring(0, slash);
    List<ZkHost> out = new ArrayList<>();
    for (String hostPort : hosts.split(",", -1)) {
      int colon = hostPort.lastIndexOf(':');
      out.add(new ZkHost(hostPort, colon < 0 ? hostPort : hostPort.substring(0, colon),
          colon < 0 ? "2181" : hostPort.substring(colon + 1)));
    }
    return out;
  }

  static ClientSettings from(Config c) {
    String zk = c.getString(ClusterConfig.ZK_CONNECT, "").trim();
    if (zk.isEmpty()) {
      throw new IllegalArgumentException("configuration " + ClusterConfig.ZK_CONNECT + " is not set");
    }
    checkConnectString(zk);
    return new ClientSettings(
        zk,
        ZkPaths.from(c),
        c.getInt(ClusterConfig.ZK_SESSION_TIMEOUT_MS, ClusterConfig.DEFAULT_ZK_SESSION_TIMEOUT_MS),
        positive(c, ClientConfig.ZK_CONNECT_TIMEOUT_MS,
            c.getLong(ClientConfig.ZK_CONNECT_TIMEOUT_MS, ClientConfig.DEFAULT_ZK_CONNECT_TIMEOUT_MS)),
        positive(c, ClusterConfig.RPC_DEADLINE_MS, c.getLong(ClusterConfig.RPC_DEADLINE_MS, ClusterConfig.DEFAULT_RPC_DEADLINE_MS)),
        positive(c, ClientConfig.ATTEMPT_TIMEOUT_MS, c.getLong(ClientConfig.ATTEMPT_TIMEOUT_MS, ClientConfig.DEFAULT_ATTEMPT_TIMEOUT_MS)),
        (int) Math.min(Integer.MAX_VALUE,
            positive(c, ClusterConfig.RPC_MAX_MESSAGE_BYTES,
                c.getBytes(ClusterConfig.RPC_MAX_MESSAGE_BYTES, ClusterConfig.DEFAULT_RPC_MAX_MESSAGE_BYTES))),
        positive(c, ClientConfig.RETRY_INITIAL_MS, c.getLong(ClientConfig.RETRY_INITIAL_MS, ClientConfig.DEFAULT_RETRY_INITIAL_MS)),
        positive(c, ClientConfig.RETRY_MAX_MS, c.getLong(ClientConfig.RETRY_MAX_MS, ClientConfig.DEFAULT_RETRY_MAX_MS)),
        (int) positive(c, ClientConfig.SCAN_PREFETCH_TABLETS,
            c.getInt(ClientConfig.SCAN_PREFETCH_TABLETS, ClientConfig.DEFAULT_SCAN_PREFETCH_TABLETS)),
        (int) positive(c, ClientConfig.SCAN_BUFFERED_BATCHES,
            c.getInt(ClientConfig.SCAN_BUFFERED_BATCHES, ClientConfig.DEFAULT_SCAN_BUFFERED_BATCHES)),
        (int) positive(c, ClientConfig.TXN_RETRY_ATTEMPTS,
            c.getInt(ClientConfig.TXN_RETRY_ATTEMPTS, ClientConfig.DEFAULT_TXN_RETRY_ATTEMPTS)),
        c.getBoolean(ClientConfig.WRITE_COALESCE, ClientConfig.DEFAULT_WRITE_COALESCE),
        (int) positive(c, ClientConfig.WRITE_IN_FLIGHT_PER_TABLET,
            c.getInt(ClientConfig.WRITE_IN_FLIGHT_PER_TABLET, ClientConfig.DEFAULT_WRITE_IN_FLIGHT_PER_TABLET)),
        (int) positive(c, ClientConfig.WRITE_BATCH_MAX_ROWS,
            c.getInt(ClientConfig.WRITE_BATCH_MAX_ROWS, ClientConfig.DEFAULT_WRITE_BATCH_MAX_ROWS)),
        positive(c, ClientConfig.SNAPSHOT_LEASE_AFTER_MS,
            c.getLong(ClientConfig.SNAPSHOT_LEASE_AFTER_MS, ClientConfig.DEFAULT_SNAPSHOT_LEASE_AFTER_MS)));
  }

  private static long positive(Config c, String key, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException("configuration " + key + "=" + value + " must be positive");
    }
    return value;
  }

  /** The deadline of one client operation, all of its retries included. */
  Deadline newDeadline() {
    return Deadline.after(deadlineMs, TimeUnit.MILLISECONDS);
  }

  /** The deadline of one attempt of an operation that ends at {@code operation}. */
  Deadline attemptDeadline(Deadline operation) {
    Deadline attempt = Deadline.after(attemptTimeoutMs, TimeUnit.MILLISECONDS);
    return attempt.isBefore(operation) ? attempt : operation;
  }
}
