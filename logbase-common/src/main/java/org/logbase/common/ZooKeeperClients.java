package org.logbase.common;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The one way LogBase's processes (masters, tablet servers, the readiness checks of the scripts)
 * make a ZooKeeper client, with one retry policy: an operation is retried up to 5 times, 200 ms
 * apart and doubling, each attempt waiting at most a session timeout (15 s at most) for a lost
 * connection. The client library is the one exception ({@code LogBaseClient}): it retries an
 * operation once and leaves longer outages to its caller's deadline, so an application's call fails
 * within the deadline it asked for.
 */
public final class ZooKeeperClients {
  /** How long a server waits for its first connection before it gives up starting. */
  public static final Duration CONNECT_WAIT = Duration.ofSeconds(30);
  private static final int MAX_CONNECTION_TIMEOUT_MS = 15_000;

  private ZooKeeperClients() {}

  /** The retry policy of every LogBase process's ZooKeeper operations. */
  public static RetryPolicy retryPolicy() {
    return new ExponentialBackoffRetry(200, 5);
  }

  /** A started client that has not necessarily connected yet (readiness checks poll it). */
  public static CuratorFramework start(String connect, int sessionTimeoutMs) {
    CuratorFramework zk = CuratorFrameworkFactory.builder()
        .connectString(connect)
        .sessionTimeoutMs(sessionTimeoutMs)
        // A connection attempt may not outlast a session (Curator warns, and uses the session timeout).
        .connectionTimeoutMs(Math.min(MAX_CONNECTION_TIMEOUT_MS, sessionTimeoutMs))
        .retryPolicy(retryPolicy())
        .build();
    zk.start();
    return zk;
  }

  /**
   * A server's client, connected: the address and session timeout come from the settings ({@link
   * ClusterConfig#ZK_CONNECT}, {@link ClusterConfig#ZK_SESSION_TIMEOUT_MS}).
   *
   * @throws IOException if ZooKeeper cannot be reached within {@link #CONNECT_WAIT}
   */
  public static CuratorFramework connect(Config config) throws IOException, InterruptedException {
    String connect = config.getString(ClusterConfig.ZK_CONNECT, ClusterConfig.DEFAULT_ZK_CONNECT);
    int sessionMs = config.getInt(ClusterConfig.ZK_SESSION_TIMEOUT_MS, ClusterConfig.DEFAULT_ZK_SESSION_TIMEOUT_MS);
    CuratorFramework zk = start(connect, sessionMs);
    if (!zk.blockUntilConnected((int) CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      zk.close();
      throw new IOException("cannot reach ZooKeeper at " + connect + " within " + CONNECT_WAIT.toSeconds()
          + " s (setting " + ClusterConfig.ZK_CONNECT + ")");
    }
    return zk;
  }
}
