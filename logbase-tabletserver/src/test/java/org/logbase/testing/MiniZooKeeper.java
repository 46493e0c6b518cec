package org.logbase.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;

/** A real ZooKeeper server on a free port with a started Curator client of it, for tests. */
public final class MiniZooKeeper implements AutoCloseable {
  private final TestingServer server;
  private final CuratorFramework client;

  /** With Curator's default connection timeout (15 s). */
  public MiniZooKeeper() throws Exception {
    this(15_000);
  }

  /**
   * @param connectionTimeoutMs how long a client operation waits for a lost connection before it
   *     fails; the client retries an operation once
   */
  public MiniZooKeeper(int connectionTimeoutMs) throws Exception {
    server = new TestingServer(true);
    client = CuratorFrameworkFactory.builder()
        .connectString(server.getConnectString())
        .connectionTimeoutMs(connectionTimeoutMs)
        .retryPolicy(new RetryOneTime(50))
        .build();
    client.start();
  }

  public CuratorFramework client() {
    return client;
  }

  /** The server, for tests that stop it. */
  public TestingServer server() {
    return server;
  }

  @Override
  public void close() throws Exception {
    client.close();
    server.close();
  }
}
