package org.logbase.dist;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.logbase.master.MasterServer;
import org.logbase.tabletserver.server.TabletServer;
import org.logbase.testing.BrokenTabletServer;
import org.logbase.testing.ChildProcess;
import org.logbase.testing.MiniHdfs;

/**
 * A cluster of real processes for integration tests: ZooKeeper, masters and tablet servers each in
 * a child JVM, HDFS as a MiniDFSCluster in the test JVM. Closing kills whatever is left.
 */
final class LocalCluster implements AutoCloseable {
  static final Duration START = Duration.ofSeconds(90);

  final Path dir;
  final MiniHdfs hdfs;
  final int zkPort;
  final Path config;
  final Map<String, ChildProcess> masters = new LinkedHashMap<>();
  final Map<String, ChildProcess> tabletServers = new LinkedHashMap<>();
  private final List<ChildProcess> all = new ArrayList<>();
  private final ChildProcess zk;
  private final List<String> tabletServerPrefix;

  LocalCluster(Path dir, int masterCount, int serverCount) throws Exception {
    this(dir, masterCount, serverCount, true, Map.of());
  }

  /**
   * @param onHdfs false keeps the logs on the local file system (faster, for tests about
   *     transactions rather than storage)
   * @param settings more lines for the cluster's logbase.properties
   */
  LocalCluster(Path dir, int masterCount, int serverCount, boolean onHdfs, Map<String, String> settings)
      throws Exception {
    this(dir, masterCount, serverCount, onHdfs, settings, List.of());
  }

  /**
   * @param tabletServerPrefix arguments that start tablet servers as a deliberately broken variant
   *     ({@link BrokenTabletServer}'s {@code --broken=...}); empty for the product
   */
  LocalCluster(Path dir, int masterCount, int serverCount, boolean onHdfs, Map<String, String> settings,
      List<String> tabletServerPrefix) throws Exception {
    this.tabletServerPrefix = List.copyOf(tabletServerPrefix);
    this.dir = dir;
    this.hdfs = onHdfs ? new MiniHdfs(dir.resolve("hdfs").toFile()) : null;
    this.zkPort = freePort();
    Path zoo = dir.resolve("zoo.cfg");
    Files.writeString(zoo, String.join("\n",
        "tickTime=1000", "dataDir=" + dir.resolve("zookeeper"), "clientPort=" + zkPort,
        "clientPortAddress=127.0.0.1", "admin.enableServer=false", "maxSessionTimeout=60000", ""));
    zk = start(ZooKeeperServerMain.class, "zookeeper", zoo.toString());
    try (var client = ClusterCheck.client(zkConnect())) {
      if (!client.blockUntilConnected(60, java.util.concurrent.TimeUnit.SECONDS)) {
        throw new AssertionError("ZooKeeper did not start; see " + dir.resolve("zookeeper.log"));
      }
    }
    this.config = dir.resolve("logbase.properties");
    List<String> lines = new ArrayList<>(List.of(
        "zookeeper.connect=" + zkConnect(),
        // Short sessions, so a killed master's election node disappears in seconds; not shorter,
        // so a loaded CI machine does not expire live processes' sessions.
        "zookeeper.session.timeout.ms=6000",
        "logbase.fs.root=" + (hdfs != null ? hdfs.uri("/logbase") : dir.resolve("fs").toUri().toString()),
        "tabletserver.heartbeat.interval.ms=1000"));
    settings.forEach((k, v) -> lines.add(k + "=" + v));
    lines.add("");
    Files.writeString(config, String.join("\n", lines), StandardCharsets.UTF_8);
    for (int i = 1; i <= masterCount; i++) {
      startMaster("master" + i);
    }
    for (int i = 1; i <= serverCount; i++) {
      startTabletServer("ts" + i);
    }
    for (ChildProcess m : masters.values()) {
      m.await(l -> l.startsWith("MASTER READY"), START);
    }
    for (ChildProcess t : tabletServers.values()) {
      t.await(l -> l.startsWith("TABLETSERVER READY"), START);
    }
  }

  String zkConnect() {
    return "localhost:" + zkPort;
  }

  ChildProcess startMaster(String name) throws IOException {
    ChildProcess p = start(MasterServer.class, name, "--config", config.toString(), "--port", "0");
    masters.put(name, p);
    return p;
  }

  ChildProcess startTabletServer(String id) throws IOException {
    List<String> args = new ArrayList<>(tabletServerPrefix);
    args.addAll(List.of("--id", id, "--config", config.toString(), "--port", "0"));
    ChildProcess p = start(tabletServerPrefix.isEmpty() ? TabletServer.class : BrokenTabletServer.class, id,
        args.toArray(String[]::new));
    tabletServers.put(id, p);
    return p;
  }

  /** The master process whose READY line names this address. */
  String masterAt(String address) {
    for (Map.Entry<String, ChildProcess> e : masters.entrySet()) {
      if (e.getValue().lines().stream().anyMatch(l -> l.startsWith("MASTER READY") && l.endsWith(address))) {
        return e.getKey();
      }
    }
    throw new AssertionError("no master process at " + address);
  }

  /** host:port a tablet server printed in its READY line. */
  String tabletServerAddress(String id) {
    for (String l : tabletServers.get(id).lines()) {
      if (l.startsWith("TABLETSERVER READY")) {
        return l.substring(l.lastIndexOf(' ') + 1);
      }
    }
    throw new AssertionError(id + " is not ready");
  }

  ChildProcess start(Class<?> main, String name, String... args) throws IOException {
    ChildProcess p = new ChildProcess(main, List.of("-Xmx384m",
        "-Dlog4j.configuration=file:" + Path.of("src/test/resources/log4j-child.properties").toAbsolutePath()),
        dir.resolve(name + ".log").toFile(), args);
    all.add(p);
    return p;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    for (ChildProcess p : all) {
      p.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }
}
