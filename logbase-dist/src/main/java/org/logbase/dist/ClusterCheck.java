package org.logbase.dist;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.logbase.common.ZooKeeperClients;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.logbase.common.ZkPaths;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Waits until a piece of a starting cluster is ready, so scripts do not guess with sleeps. Exits 0
 * when ready, 1 with a message when the deadline passes.
 */
@Command(name = "cluster-check", mixinStandardHelpOptions = true,
    subcommands = {ClusterCheck.Zk.class, ClusterCheck.Fs.class, ClusterCheck.Cluster.class})
public final class ClusterCheck {
  public static void main(String[] args) {
    System.exit(new CommandLine(new ClusterCheck()).execute(args));
  }

  @Command(name = "zookeeper", description = "ZooKeeper accepts sessions.")
  static final class Zk implements Callable<Integer> {
    @Parameters(index = "0") String connect;
    @Parameters(index = "1") int seconds;

    @Override
    public Integer call() throws Exception {
      try (CuratorFramework zk = client(connect)) {
        if (zk.blockUntilConnected(seconds, TimeUnit.SECONDS)) {
          return 0;
        }
      }
      System.err.println("ZooKeeper at " + connect + " not reachable within " + seconds + " s");
      return 1;
    }
  }

  @Command(name = "fs", description = "A file can be written, flushed and read back under the root"
      + " (on HDFS once a DataNode has registered).")
  static final class Fs implements Callable<Integer> {
    @Parameters(index = "0") String root;
    @Parameters(index = "1") int seconds;

    @Override
    public Integer call() throws Exception {
      Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
      Exception last = null;
      while (Instant.now().isBefore(deadline)) {
        try (FileSystem fs = FileSystem.newInstance(URI.create(root), new Configuration())) {
          // A write before a DataNode registered fails, and the HDFS client logs it with stack traces.
          if (fs instanceof DistributedFileSystem dfs
              && (dfs.isInSafeMode() || dfs.getDataNodeStats(DatanodeReportType.LIVE).length == 0)) {
            last = new IllegalStateException("the NameNode is in safe mode or no DataNode has registered yet");
            Thread.sleep(250); // polling the NameNode's DataNode report; nothing to await but time
            continue;
          }
          writeProbe(fs, new Path(root + "/.ready-check"));
          return 0;
        } catch (Exception e) {
          last = e;
          Thread.sleep(1000); // the DataNode is still registering; nothing to await but time
        }
      }
      System.err.println("file system at " + root + " not writable within " + seconds + " s: " + last);
      return 1;
    }
  }

  /**
   * Writes, flushes and closes a small file at {@code p}, then deletes it: the file system takes
   * writes (on HDFS, a DataNode accepts a pipeline).
   */
  public static void writeProbe(FileSystem fs, Path p) throws IOException {
    FSDataOutputStream out = fs.create(p, true);
    try {
      out.write("ok".getBytes(StandardCharsets.UTF_8));
      out.hflush();
    } finally {
      // Not try-with-resources: a failed HDFS stream's close throws the very exception of its
      // write, which cannot suppress itself.
      try {
        out.close();
      } catch (IOException e) {
        throw new IOException("the probe file " + p + " could not be closed", e);
      }
    }
    fs.delete(p, false);
  }

  @Command(name = "cluster", description = "An active master and this many live tablet servers.")
  static final class Cluster implements Callable<Integer> {
    @Parameters(index = "0") String connect;
    @Parameters(index = "1") int servers;
    @Parameters(index = "2") int seconds;

    @Override
    public Integer call() throws Exception {
      ZkPaths paths = new ZkPaths(ZkPaths.DEFAULT_ROOT);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
      try (CuratorFramework zk = client(connect)) {
        zk.blockUntilConnected(seconds, TimeUnit.SECONDS);
        while (Instant.now().isBefore(deadline)) {
          boolean master = zk.checkExists().forPath(paths.activeMaster()) != null;
          int live = zk.checkExists().forPath(paths.servers()) == null ? 0
              : zk.getChildren().forPath(paths.servers()).size();
          if (master && live >= servers) {
            return 0;
          }
          Thread.sleep(250); // polling znodes a few times a second is enough for a start-up script
        }
      }
      System.err.println("no active master and " + servers + " tablet servers within " + seconds + " s");
      return 1;
    }
  }

  /** A started ZooKeeper client for readiness checks (the caller closes it). */
  public static CuratorFramework client(String connect) {
    return ZooKeeperClients.start(connect, 10_000);
  }
}
