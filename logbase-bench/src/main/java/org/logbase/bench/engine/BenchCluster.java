package org.logbase.bench.engine;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.logbase.log.LogFileSystems;
import org.logbase.testing.MiniHdfs;

/**
 * A one-DataNode MiniDFSCluster in a fresh temporary directory, plus a client file system for the
 * baselines. Closing it (or the JVM exiting on Ctrl-C) shuts the cluster down and deletes the
 * directory, so no run leaves data or processes behind.
 */
final class BenchCluster implements AutoCloseable {
  private final File dir;
  private final MiniHdfs hdfs;
  private final FileSystem fs;
  private final Thread cleanup;
  private boolean closed;

  private BenchCluster(File dir, MiniHdfs hdfs, FileSystem fs) {
    this.dir = dir;
    this.hdfs = hdfs;
    this.fs = fs;
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
    return new BenchCluster(dir, hdfs, fs);
  }

  URI uri(String path) {
    return hdfs.uri(path);
  }

  Configuration conf() {
    return hdfs.conf();
  }

  /** The benchmark's own client (not the engine's). */
  FileSystem fs() {
    return fs;
  }

  org.apache.hadoop.fs.Path path(String path) {
    return new org.apache.hadoop.fs.Path(uri(path));
  }

  void delete(String path) throws IOException {
    fs.delete(path(path), true);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      fs.close();
    } catch (IOException e) {
      System.err.println("closing the benchmark's file system failed: " + e);
    }
    hdfs.close();
    deleteRecursively(dir.toPath());
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
