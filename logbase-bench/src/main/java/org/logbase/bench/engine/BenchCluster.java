package org.logbase.bench.engine;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.log.LogFileSystems;
import org.logbase.testing.MiniHdfs;

/**
 * Where a benchmark writes: by default a one-DataNode MiniDFSCluster in a fresh temporary directory;
 * or, with {@link #attach}, a fresh directory on a file system that is already running (the real
 * HDFS daemons of a cluster started by bin/start-cluster.sh, so that the engine is measured on the
 * very HDFS its tablet servers use). Either way there is a client file system for the baselines,
 * and closing (or the JVM exiting on Ctrl-C) removes everything the run wrote, and the MiniDFSCluster
 * with its directory, so no run leaves data or processes behind.
 */
public final class BenchCluster implements AutoCloseable {
  /** All paths the benchmarks name are below this URI (no trailing slash). */
  private final String root;
  private final Configuration conf;
  private final FileSystem fs;
  /** The in-process cluster and its local directory; null when attached to an external file system. */
  private final MiniHdfs hdfs;
  private final File dir;
  private final Thread cleanup;
  private boolean closed;

  private BenchCluster(String root, Configuration conf, FileSystem fs, MiniHdfs hdfs, File dir) {
    this.root = root;
    this.conf = conf;
    this.fs = fs;
    this.hdfs = hdfs;
    this.dir = dir;
    this.cleanup = new Thread(this::close, "bench-cluster-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
  }

  /** @param tmpBase where the temporary directory goes (a local disk with room for the data) */
  static BenchCluster start(String tmpBase) throws IOException {
    Path base = Path.of(tmpBase);
    Files.createDirectories(base);
    File dir = Files.createTempDirectory(base, "logbase-bench-").toFile();
    long t0 = System.nanoTime();
    MiniHdfs hdfs;
    try {
      hdfs = new MiniHdfs(dir);
    } catch (IOException | RuntimeException e) {
      deleteRecursively(dir.toPath());
      throw e;
    }
    // A separate, uncached instance: what the engine's own LogFileSystems.open gives it too.
    FileSystem fs = LogFileSystems.open(hdfs.uri("/"), hdfs.conf());
    System.out.printf("MiniDFSCluster (1 DataNode) up in %d ms at %s, data in %s%n",
        (System.nanoTime() - t0) / 1_000_000, hdfs.uri("/"), dir);
    return new BenchCluster(hdfs.uri("").toString(), hdfs.conf(), fs, hdfs, dir);
  }

  /**
   * Uses a running file system: everything goes into a new directory below {@code fsRoot}, which
   * closing deletes again (nothing else there is touched).
   *
   * @param conf the client configuration; give it the cluster's hdfs-site.xml so that replication and
   *     the other client settings are the ones the tablet servers use
   */
  static BenchCluster attach(URI fsRoot, Configuration conf) throws IOException {
    String root = fsRoot.toString().replaceAll("/+$", "")
        + String.format("/bench-%d-%04x", System.currentTimeMillis(), ThreadLocalRandom.current().nextInt(1 << 16));
    FileSystem fs = LogFileSystems.open(URI.create(root), conf);
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(root);
    if (!fs.mkdirs(p)) {
      fs.close();
      throw new IOException("cannot create " + root);
    }
    System.out.printf("using the running file system at %s (replication %d)%n", root, fs.getDefaultReplication(p));
    return new BenchCluster(root, conf, fs, null, null);
  }

  public URI uri(String path) {
    return URI.create(root + path);
  }

  public Configuration conf() {
    return conf;
  }

  /** The benchmark's own client (not the engine's). */
  public FileSystem fs() {
    return fs;
  }

  public org.apache.hadoop.fs.Path path(String path) {
    return new org.apache.hadoop.fs.Path(uri(path));
  }

  public void delete(String path) throws IOException {
    fs.delete(path(path), true);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (hdfs == null) {
      try {
        fs.delete(path(""), true);
      } catch (IOException e) {
        System.err.println("could not delete " + root + ": " + e);
      }
    }
    try {
      fs.close();
    } catch (IOException e) {
      System.err.println("closing the benchmark's file system failed: " + e);
    }
    if (hdfs != null) {
      hdfs.close();
      deleteRecursively(dir.toPath());
    }
    if (Thread.currentThread() != cleanup) {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down; the hook finds us closed.
      }
    }
  }

  private static void deleteRecursively(Path p) {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + p + ": " + e);
    }
  }
}
