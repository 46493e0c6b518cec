package org.logbase.bench.txn;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ServerInfo;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.master.MasterServer;
import org.logbase.tabletserver.server.TabletServer;

/**
 * A whole cluster in this JVM: ZooKeeper (Curator TestingServer), one master and tablet servers
 * {@code ts1..tsN} on free ports, their logs in a fresh directory below a file system root (a local
 * temporary directory unless an {@code hdfs://} root is given), and a client that reaches them over
 * loopback gRPC like any other. Closing (or the JVM exiting) stops everything and deletes the
 * directory.
 */
public final class InProcessCluster implements AutoCloseable {
  private final String name;
  private final TestingServer zk;
  private final URI fsRoot;
  private final List<AutoCloseable> started = new ArrayList<>();
  private final Thread cleanup;
  private LogBaseClient client;
  private boolean closed;

  private InProcessCluster(String name, TestingServer zk, URI fsRoot) {
    this.name = name;
    this.zk = zk;
    this.fsRoot = fsRoot;
    this.cleanup = new Thread(this::close, name + "-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
  }

  /**
   * Starts a cluster and returns once the master is active and every tablet server is live.
   *
   * @param fsRootBase null for a local temporary directory, else a file system URI under which a
   *     fresh directory is made
   * @param settings more settings for every process ({@code txn.lock.manager}, ...)
   */
  static InProcessCluster start(String name, int servers, String fsRootBase, Map<String, String> settings)
      throws Exception {
    URI root = fsRootBase == null
        ? Files.createTempDirectory("logbase-" + name + "-").toUri()
        : URI.create(fsRootBase.replaceAll("/+$", "") + String.format("/logbase-%s-%d-%04x", name,
            System.currentTimeMillis(), ThreadLocalRandom.current().nextInt(1 << 16)));
    InProcessCluster c = new InProcessCluster(name, new TestingServer(true), root);
    try {
      Config config = Config.empty()
          .with(ClusterConfig.ZK_CONNECT, c.zk.getConnectString())
          .with(ClusterConfig.FS_ROOT, root.toString())
          // Long enough that a GC pause on a busy 2-core machine does not expire a server.
          .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 20_000)
          .with(TabletServer.HEARTBEAT_MS, 1000)
          // Three servers share one heap: keep their read caches small.
          .with("cache.max.bytes", "32m")
          .withAll(Config.of(settings));
      long t0 = System.nanoTime();
      MasterServer master = MasterServer.start(config, "localhost", 0, new PrintStream(OutputStream.nullOutputStream()));
      c.started.add(master);
      awaitActive(master);
      for (int i = 1; i <= servers; i++) {
        c.started.add(TabletServer.start(config, "ts" + i, "localhost", 0));
      }
      c.client = LogBaseClient.connect(config);
      c.awaitLiveServers(servers);
      System.out.printf("cluster %s: ZooKeeper, a master and %d tablet servers up in %d ms, logs in %s, %s%n", name,
          servers, (System.nanoTime() - t0) / 1_000_000, root, settings);
      return c;
    } catch (Exception | Error e) {
      c.close();
      throw e;
    }
  }

  LogBaseClient client() {
    return client;
  }

  String name() {
    return name;
  }

  private void awaitLiveServers(int servers) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (client.admin().clusterStatus().servers().stream().filter(ServerInfo::live).count() < servers) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the master did not see " + servers + " live tablet servers within 60 s");
      }
      Thread.sleep(50);
    }
  }

  /** Waits until {@code master} won the election (it is the only one, so it will). */
  public static void awaitActive(MasterServer master) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!master.isActive()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the master did not become active within 30 s");
      }
      Thread.sleep(10);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (Thread.currentThread() != cleanup) {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
    if (client != null) {
      client.close();
    }
    // Tablet servers before the master, the master before ZooKeeper.
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        System.err.println("closing " + started.get(i) + " failed: " + e);
      }
    }
    try {
      zk.close();
    } catch (IOException e) {
      System.err.println("closing ZooKeeper failed: " + e);
    }
    try (FileSystem fs = FileSystem.newInstance(fsRoot, new Configuration())) {
      fs.delete(new Path(fsRoot), true);
    } catch (IOException e) {
      System.err.println("could not delete " + fsRoot + ": " + e);
    }
  }
}
