package org.logbase.dist;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.master.MasterServer;
import org.logbase.tabletserver.server.TabletServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded default: one JVM with an in-process ZooKeeper, a master and a tablet server, logs on
 * the local file system. Clients and the shell connect to it like to any cluster.
 */
@Command(name = "standalone", mixinStandardHelpOptions = true,
    description = "Run ZooKeeper, a master and a tablet server in this JVM, with data on the local file system.")
public final class Standalone implements Callable<Integer>, AutoCloseable {
  @Option(names = "--dir", description = "Data directory (default: ${DEFAULT-VALUE}).")
  Path dir = Path.of("run/standalone");

  @Option(names = "--zk-port", description = "ZooKeeper client port (default: ${DEFAULT-VALUE}).")
  int zkPort = 2181;

  @Option(names = "--master-port", description = "Master RPC port (default: ${DEFAULT-VALUE}).")
  int masterPort = 16000;

  @Option(names = "--tabletserver-port", description = "Tablet server RPC port (default: ${DEFAULT-VALUE}).")
  int tabletServerPort = 16020;

  @Option(names = "--config", description = "Settings file (default: conf/logbase.properties when it exists).")
  Path configFile = Path.of("conf/logbase.properties");

  private ZooKeeperServerEmbedded zk;
  private MasterServer master;
  private TabletServer tabletServer;

  public static void main(String[] args) {
    System.exit(new CommandLine(new Standalone()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    start();
    CountDownLatch forever = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      close();
      forever.countDown();
    }, "shutdown"));
    System.out.println("STANDALONE READY zookeeper=localhost:" + zkPort + " (Ctrl-C to stop)");
    System.out.flush();
    forever.await();
    return 0;
  }

  /** Starts ZooKeeper, the master and the tablet server; returns when all serve. */
  public void start() throws Exception {
    File base = dir.toAbsolutePath().toFile();
    Files.createDirectories(dir.resolve("zookeeper"));
    Properties zkConf = new Properties();
    zkConf.setProperty("clientPort", Integer.toString(zkPort));
    zkConf.setProperty("clientPortAddress", "127.0.0.1");
    zkConf.setProperty("tickTime", "2000");
    zkConf.setProperty("admin.enableServer", "false");
    zk = ZooKeeperServerEmbedded.builder().baseDir(dir.resolve("zookeeper").toAbsolutePath())
        .configuration(zkConf).exitHandler(ExitHandler.LOG_ONLY).build();
    zk.start();
    Config config = (Files.exists(configFile) ? Config.load(configFile) : Config.empty())
        .with(ClusterConfig.ZK_CONNECT, "localhost:" + zkPort)
        .with(ClusterConfig.FS_ROOT, new File(base, "fs").toURI().toString());
    master = MasterServer.start(config, "localhost", masterPort, System.out);
    tabletServer = TabletServer.start(config, "standalone-ts", "localhost", tabletServerPort);
  }

  @Override
  public synchronized void close() {
    if (tabletServer != null) {
      tabletServer.close();
      tabletServer = null;
    }
    if (master != null) {
      master.close();
      master = null;
    }
    if (zk != null) {
      zk.close();
      zk = null;
    }
  }
}
