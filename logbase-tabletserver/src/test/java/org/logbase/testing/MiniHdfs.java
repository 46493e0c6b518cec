package org.logbase.testing;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** A one-DataNode MiniDFSCluster in a directory of its own, for tests and benchmarks. */
public final class MiniHdfs implements AutoCloseable {
  private final MiniDFSCluster cluster;

  public MiniHdfs(File baseDir) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.getAbsolutePath());
    // Small blocks would split segments; the log sets its own block size per file anyway.
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setBoolean("dfs.permissions.enabled", false);
    // Lease recovery of a killed writer's file should finish in seconds, not minutes.
    conf.setLong("dfs.heartbeat.interval", 1);
    this.cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
  }

  /** The cluster's URI plus a path, e.g. {@code uri("/logbase/server1")}. */
  public URI uri(String path) {
    return URI.create(cluster.getURI().toString() + path);
  }

  public Configuration conf() {
    return cluster.getConfiguration(0);
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
