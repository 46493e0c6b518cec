package org.logbase.chaos.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.logbase.client.LogBaseClient;
import org.logbase.common.ClusterConfig;
import org.logbase.dist.ClusterCheck;
import org.logbase.master.MasterServer;
import org.logbase.tabletserver.server.TabletServer;
import org.logbase.testing.BrokenTabletServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster under test: ZooKeeper, masters and tablet servers, each a process of its own
 * ({@link Daemon}), logs on the local file system under the run's directory, or on HDFS daemons of
 * their own ({@link HdfsDaemons}: a NameNode and a DataNode the nemesis can kill and pause too). The nemesis kills,
 * pauses and restarts them; {@link #heal} brings every one back. Masters and tablet servers reach ZooKeeper
 * through a {@link Link} each, which the nemesis cuts to partition one from it.
 */
public final class ChaosCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChaosCluster.class);
  /** How long a process may take to print its READY line (a loaded 2-core machine, recovery included). */
  public static final Duration START = Duration.ofSeconds(120);

  private final Path dir;
  private final int zkPort;
  private final Path config;
  private final Daemon zookeeper;
  /** The HDFS the logs live on, or null for the local file system. */
  private final HdfsDaemons hdfs;
  private final Map<String, Daemon> masters = new LinkedHashMap<>();
  private final Map<String, Daemon> tabletServers = new LinkedHashMap<>();
  private final List<Daemon> others = new CopyOnWriteArrayList<>();
  /** Each master's and tablet server's path to ZooKeeper, which a partition cuts. */
  private final Map<Daemon, Link> zooKeeperLinks = new LinkedHashMap<>();
  /**
   * Each tablet server's RPC port as clients, masters and the other servers reach it (the address it
   * registers): cutting one isolates the server from all of them while it keeps ZooKeeper.
   */
  private final Map<Daemon, Link> rpcLinks = new LinkedHashMap<>();

  /**
   * @param settings lines for the cluster's logbase.properties, on top of the defaults here
   * @param broken what the tablet servers have broken on purpose ({@link BrokenTabletServer}: empty for
   *     the product, else e.g. "validation" or "snapshot-reads")
   */
  public ChaosCluster(Path dir, int masterCount, int serverCount, Map<String, String> settings, String broken)
      throws Exception {
    this(dir, masterCount, serverCount, settings, broken, false);
  }

  /** @param onHdfs the logs on a NameNode and a DataNode of the cluster's own, not the local file system */
  public ChaosCluster(Path dir, int masterCount, int serverCount, Map<String, String> settings, String broken,
      boolean onHdfs) throws Exception {
    this.dir = dir;
    Files.createDirectories(dir.resolve("logs"));
    this.zkPort = Ports.free();
    Path zoo = dir.resolve("zoo.cfg");
    Files.writeString(zoo, String.join("\n",
        "tickTime=1000", "dataDir=" + dir.resolve("zookeeper"), "clientPort=" + zkPort,
        "clientPortAddress=127.0.0.1", "admin.enableServer=false", "maxSessionTimeout=60000", ""));
    zookeeper = daemon("zookeeper", ZooKeeperServerMain.class, null, List.of(zoo.toString()));
    this.hdfs = onHdfs ? new HdfsDaemons(dir.toFile(), this::daemon) : null;
    File hadoopConf = onHdfs ? hdfs.confDir() : null;
    this.config = dir.resolve("logbase.properties");
    Map<String, String> all = new LinkedHashMap<>();
    all.put("zookeeper.connect", zkConnect());
    all.put("zookeeper.session.timeout.ms", "6000");
    all.put("logbase.fs.root", (onHdfs ? hdfs.logRoot() : dir.resolve("fs").toUri()).toString());
    all.put("tabletserver.heartbeat.interval.ms", "1000");
    all.putAll(settings);
    writeConfig(config, all);
    for (int i = 1; i <= masterCount; i++) {
      String name = "master" + i;
      Link link = new Link(name, zkPort);
      Daemon m = daemon(name, MasterServer.class, hadoopConf, List.of("--config", linkedConfig(name, link, all), "--port", "0"));
      masters.put(name, m);
      zooKeeperLinks.put(m, link);
    }
    for (int i = 1; i <= serverCount; i++) {
      String id = "ts" + i;
      Link link = new Link(id, zkPort);
      // A fixed port (restarts bind it again), reached through a link whose address is registered.
      int rpcPort = Ports.free();
      Link rpc = new Link(id + "-rpc", rpcPort);
      List<String> args = List.of("--id", id, "--config", linkedConfig(id, link, all), "--port", Integer.toString(rpcPort),
          "--host", "127.0.0.1", "--advertise", "127.0.0.1:" + rpc.port());
      Daemon ts = broken.isEmpty() ? daemon(id, TabletServer.class, hadoopConf, args)
          : daemon(id, BrokenTabletServer.class, hadoopConf, concat(BrokenTabletServer.BROKEN + broken, args));
      tabletServers.put(id, ts);
      zooKeeperLinks.put(ts, link);
      rpcLinks.put(ts, rpc);
    }
  }

  /** Writes the configuration of the process {@code name}: the cluster's, with ZooKeeper reached through {@code link}. */
  private String linkedConfig(String name, Link link, Map<String, String> settings) throws IOException {
    Map<String, String> own = new LinkedHashMap<>(settings);
    own.put(ClusterConfig.ZK_CONNECT, "127.0.0.1:" + link.port());
    Path p = dir.resolve("logbase-" + name + ".properties");
    writeConfig(p, own);
    return p.toString();
  }

  private static void writeConfig(Path p, Map<String, String> settings) throws IOException {
    List<String> lines = new ArrayList<>();
    settings.forEach((k, v) -> lines.add(k + "=" + v));
    lines.add("");
    Files.writeString(p, String.join("\n", lines), StandardCharsets.UTF_8);
  }

  private static List<String> concat(String first, List<String> rest) {
    List<String> out = new ArrayList<>();
    out.add(first);
    out.addAll(rest);
    return out;
  }

  private Daemon daemon(String name, Class<?> main, File confDir, List<String> args) {
    return new Daemon(name, main, List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Dlog4j.configuration=chaos-log4j.properties"), confDir, args, dir.resolve("logs/" + name + ".log").toFile(),
        line -> { });
  }

  /** Starts every process and waits until all are ready. */
  public void start() throws Exception {
    startZooKeeper();
    for (Daemon d : hdfsDaemons()) {
      restart(d); // NameNode, then DataNode: HDFS takes a file once the DataNode is ready
    }
    for (Daemon m : masters.values()) {
      m.start();
    }
    for (Daemon t : tabletServers.values()) {
      t.start();
    }
    for (Daemon m : masters.values()) {
      m.await(l -> l.startsWith("MASTER READY"), START);
    }
    for (Daemon t : tabletServers.values()) {
      t.await(l -> l.startsWith("TABLETSERVER READY"), START);
    }
  }

  /** Starts ZooKeeper (again) and waits until it accepts sessions. */
  public void startZooKeeper() throws Exception {
    zookeeper.start();
    try (CuratorFramework client = ClusterCheck.client(zkConnect())) {
      if (!client.blockUntilConnected((int) START.toSeconds(), TimeUnit.SECONDS)) {
        throw Daemon.DaemonDiedException.of(zookeeper, "did not start");
      }
    }
  }

  /**
   * Restarts a dead process of the cluster and waits until it is ready. A start that fails (a
   * server that gave up on ZooKeeper while the nemesis had it down, say) is tried again, three
   * times in all.
   */
  public void restart(Daemon d) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        if (d == zookeeper) {
          startZooKeeper();
        } else {
          d.start();
          awaitReady(d);
        }
        return;
      } catch (Daemon.DaemonDiedException e) {
        d.kill9();
        if (attempt == 3) {
          throw e;
        }
        LOG.warn("{}; starting it again", e.getMessage());
      }
    }
  }

  /**
   * Waits until a started master or tablet server is ready (its READY line), or a NameNode or
   * DataNode serves.
   */
  public void awaitReady(Daemon d) throws InterruptedException, IOException {
    if (hdfs != null && hdfs.owns(d)) {
      hdfs.awaitReady(d);
      return;
    }
    d.await(l -> l.startsWith(tabletServers.containsValue(d) ? "TABLETSERVER READY" : "MASTER READY"), START);
  }

  /**
   * Brings the cluster back to health: resumes paused processes and restarts dead ones (a tablet
   * server whose ZooKeeper session expired exits by itself). Returns the processes restarted.
   */
  public List<Daemon> heal() throws Exception {
    List<Daemon> restarted = new ArrayList<>();
    for (Link link : links()) {
      link.restore();
    }
    for (Daemon d : all()) {
      d.resume();
    }
    if (!zookeeper.isAlive()) {
      restart(zookeeper);
      restarted.add(zookeeper);
    }
    for (Daemon d : all()) {
      if (d != zookeeper && !d.isAlive()) {
        restart(d);
        restarted.add(d);
      }
    }
    if (hdfs != null) {
      hdfs.awaitReady(hdfs.dataNode()); // takes a file: out of safe mode, its DataNode resumed
    }
    return restarted;
  }

  /** Every process: ZooKeeper first, then the NameNode and DataNode, then masters, then tablet servers. */
  public List<Daemon> all() {
    List<Daemon> out = new ArrayList<>();
    out.add(zookeeper);
    out.addAll(hdfsDaemons());
    out.addAll(masters.values());
    out.addAll(tabletServers.values());
    return out;
  }

  /** The path from a master or tablet server to ZooKeeper ({@link Link#cut} partitions it). */
  public Link zooKeeperLink(Daemon d) {
    Link link = zooKeeperLinks.get(d);
    if (link == null) {
      throw new IllegalArgumentException(d + " has no link to ZooKeeper");
    }
    return link;
  }

  /** The path from clients, masters and other servers to a tablet server ({@link Link#cut} isolates it). */
  public Link rpcLink(Daemon tabletServer) {
    Link link = rpcLinks.get(tabletServer);
    if (link == null) {
      throw new IllegalArgumentException(tabletServer + " is not a tablet server");
    }
    return link;
  }

  private List<Link> links() {
    List<Link> out = new ArrayList<>(zooKeeperLinks.values());
    out.addAll(rpcLinks.values());
    return out;
  }

  public Daemon zookeeper() {
    return zookeeper;
  }

  /** The NameNode and the DataNode; none when the logs are on the local file system. */
  public List<Daemon> hdfsDaemons() {
    return hdfs == null ? List.of() : hdfs.all();
  }

  /** The NameNode, if the logs are on HDFS. */
  public List<Daemon> nameNodes() {
    return hdfs == null ? List.of() : List.of(hdfs.nameNode());
  }

  /** The DataNode, if the logs are on HDFS. */
  public List<Daemon> dataNodes() {
    return hdfs == null ? List.of() : List.of(hdfs.dataNode());
  }

  public List<Daemon> masters() {
    return List.copyOf(masters.values());
  }

  public List<Daemon> tabletServers() {
    return List.copyOf(tabletServers.values());
  }

  /** The master process that is active now (by the address the cluster reports), or null. */
  public Daemon activeMaster(LogBaseClient client) {
    String address = client.admin().clusterStatus().activeMaster();
    for (Daemon m : masters.values()) {
      String ready = m.lastLine("MASTER READY");
      if (m.isAlive() && ready != null && ready.endsWith(" " + address)) {
        return m;
      }
    }
    return null;
  }

  public String zkConnect() {
    return "127.0.0.1:" + zkPort;
  }

  public Path config() {
    return config;
  }

  public Path dir() {
    return dir;
  }

  /** Another process of the run (a client) to kill when the cluster closes. */
  public void track(Daemon d) {
    others.add(d);
  }

  /** Kills every process, the tracked ones first. */
  @Override
  public void close() throws InterruptedException {
    for (Daemon d : others) {
      d.stop();
    }
    List<Daemon> reversed = new ArrayList<>(all());
    Collections.reverse(reversed);
    for (Daemon d : reversed) {
      d.stop();
    }
    for (Link link : links()) {
      try {
        link.close();
      } catch (IOException e) {
        LOG.warn("closing {}", link, e);
      }
    }
  }
}
