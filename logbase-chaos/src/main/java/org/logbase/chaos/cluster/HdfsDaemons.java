package org.logbase.chaos.cluster;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.logbase.dist.ClusterCheck;

/**
 * HDFS for a chaos run: one NameNode and one DataNode, each a {@link Daemon} the nemesis can kill,
 * pause and restart, with their data under the run's directory and fixed ports (a restarted
 * NameNode must be found at the address the tablet servers' log root names; a restarted DataNode at
 * the one its pipelines knew). Their configuration is a directory of core-site.xml and
 * hdfs-site.xml that the cluster's masters and tablet servers also get first on their classpath, as
 * an operator's hadoop-conf.
 *
 * <p>Readiness is asked of HDFS itself, as a client would find it: the NameNode is ready when it
 * answers and has left safe mode; the DataNode when a file can be written, flushed and closed.
 */
public final class HdfsDaemons {
  private static final Duration PROBE_PAUSE = Duration.ofMillis(250);

  private final File confDir;
  private final int nameNodePort;
  static final int CLIENT_SOCKET_TIMEOUT_MS = 5000;
  private final Daemon nameNode;
  private final Daemon dataNode;
  private int probes;

  /**
   * Writes the configuration and formats the NameNode's directory.
   *
   * @param daemonFactory makes a daemon from its name, main class, configuration directory and
   *     arguments (the cluster's JVM options and log files)
   */
  HdfsDaemons(File dir, DaemonFactory daemonFactory) throws IOException, InterruptedException {
    File data = new File(dir, "hdfs");
    this.confDir = new File(dir, "hadoop-conf");
    Files.createDirectories(confDir.toPath());
    this.nameNodePort = Ports.free();
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", "hdfs://127.0.0.1:" + nameNodePort);
    writeSite(new File(confDir, "core-site.xml"), core);
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.namenode.name.dir", new File(data, "namenode").getPath());
    hdfs.put("dfs.datanode.data.dir", new File(data, "datanode").getPath());
    hdfs.put("dfs.replication", "1");
    hdfs.put("dfs.permissions.enabled", "false");
    hdfs.put("dfs.namenode.rpc-address", "127.0.0.1:" + nameNodePort);
    hdfs.put("dfs.namenode.http-address", "127.0.0.1:0");
    hdfs.put("dfs.datanode.address", "127.0.0.1:" + Ports.free());
    hdfs.put("dfs.datanode.ipc.address", "127.0.0.1:" + Ports.free());
    hdfs.put("dfs.datanode.http.address", "127.0.0.1:0");
    hdfs.put("dfs.namenode.fs-limits.min-block-size", "4096");
    hdfs.put("dfs.heartbeat.interval", "1");
    // A restarted NameNode leaves safe mode once the DataNode reported, not 30 s later.
    hdfs.put("dfs.namenode.safemode.extension", "0");
    // A paused DataNode fails the servers' writes within a pause (1-20 s), as a dead one does,
    // rather than after the default 60 s: the log's retry path is what the pause is for.
    hdfs.put("dfs.client.socket-timeout", Integer.toString(CLIENT_SOCKET_TIMEOUT_MS));
    writeSite(new File(confDir, "hdfs-site.xml"), hdfs);
    format(new File(dir, "logs/namenode-format.log"));
    this.nameNode = daemonFactory.make("namenode", NameNode.class, confDir, List.of());
    this.dataNode = daemonFactory.make("datanode", DataNode.class, confDir, List.of());
  }

  /** Makes a daemon of the cluster. */
  interface DaemonFactory {
    Daemon make(String name, Class<?> main, File confDir, List<String> args);
  }

  private static void writeSite(File file, Map<String, String> properties) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("<?xml version=\"1.0\"?>");
    lines.add("<configuration>");
    properties.forEach((k, v) -> lines.add("  <property><name>" + k + "</name><value>" + v + "</value></property>"));
    lines.add("</configuration>");
    Files.write(file.toPath(), lines, StandardCharsets.UTF_8);
  }

  private void format(File log) throws IOException, InterruptedException {
    List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
        "-Dlog4j.configuration=chaos-log4j.properties", "-cp",
        confDir + File.pathSeparator + System.getProperty("java.class.path"), NameNode.class.getName(), "-format",
        "-force", "-nonInteractive");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    if (!p.waitFor(ChaosCluster.START.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("formatting the NameNode took longer than " + ChaosCluster.START + "; see " + log);
    }
    if (p.exitValue() != 0) {
      throw new IOException("formatting the NameNode failed (" + p.exitValue() + "); see " + log);
    }
  }

  /** The root the cluster's logs live under. */
  public URI logRoot() {
    return URI.create("hdfs://127.0.0.1:" + nameNodePort + "/logbase");
  }

  /** The directory of core-site.xml and hdfs-site.xml. */
  public File confDir() {
    return confDir;
  }

  public Daemon nameNode() {
    return nameNode;
  }

  public Daemon dataNode() {
    return dataNode;
  }

  /** Whether {@code d} is one of these. */
  boolean owns(Daemon d) {
    return d == nameNode || d == dataNode;
  }

  /**
   * Waits until the daemon serves: the NameNode answers (in safe mode, perhaps: it leaves it once
   * the DataNode reported, which may itself be down); the DataNode takes a flushed and closed
   * file, so HDFS as a whole takes writes.
   */
  void awaitReady(Daemon d) throws IOException, InterruptedException {
    if (d == nameNode) {
      await(d, dfs -> {
        dfs.setSafeMode(SafeModeAction.SAFEMODE_GET);
        return true;
      });
    } else {
      await(d, this::writeProbe);
    }
  }

  private boolean writeProbe(DistributedFileSystem dfs) throws IOException {
    ClusterCheck.writeProbe(dfs, new Path("/chaos-probes/" + (++probes)));
    return true;
  }

  private interface Probe {
    boolean ready(DistributedFileSystem dfs) throws IOException;
  }

  private void await(Daemon d, Probe probe) throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(ChaosCluster.START);
    IOException last = null;
    Configuration conf = clientConf();
    while (Instant.now().isBefore(deadline)) {
      if (!d.isAlive()) {
        throw Daemon.DaemonDiedException.of(d, "exited (" + d.exitValue() + ") before it was ready");
      }
      try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://127.0.0.1:" + nameNodePort), conf)) {
        if (probe.ready((DistributedFileSystem) fs)) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(PROBE_PAUSE.toMillis()); // polling HDFS, which has no readiness notification
    }
    throw Daemon.DaemonDiedException.of(d, "was not ready within " + ChaosCluster.START + " (last: " + last + ")");
  }

  /** A client configuration that gives up quickly on a NameNode that does not answer yet. */
  private Configuration clientConf() {
    Configuration conf = new Configuration(false);
    conf.addResource(new Path(new File(confDir, "core-site.xml").toURI()));
    conf.addResource(new Path(new File(confDir, "hdfs-site.xml").toURI()));
    conf.setInt("ipc.client.connect.max.retries", 1);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 1);
    conf.setInt("dfs.client.socket-timeout", 10_000);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    return conf;
  }

  /** The daemons, NameNode first. */
  List<Daemon> all() {
    return List.of(nameNode, dataNode);
  }
}
