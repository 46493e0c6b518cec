package org.logbase.manifest;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.testing.MiniHdfs;

/**
 * {@link ManifestFencingContract} on a MiniDFSCluster: two separate HDFS clients, so two lease
 * holders, as two tablet servers are.
 */
class HdfsManifestFencingTest extends ManifestFencingContract {
  @TempDir static File base;
  private static MiniHdfs hdfs;
  private static FileSystem oldClient;
  private static FileSystem newClient;
  private static int dirs;

  @BeforeAll
  static void start() throws IOException {
    hdfs = new MiniHdfs(base);
    oldClient = FileSystem.newInstance(hdfs.uri("/"), hdfs.conf());
    newClient = FileSystem.newInstance(hdfs.uri("/"), hdfs.conf());
  }

  @AfterAll
  static void stop() throws IOException {
    oldClient.close();
    newClient.close();
    hdfs.close();
  }

  @BeforeEach
  void clients() {
    oldOwner = oldClient;
    newOwner = newClient;
  }

  @Override
  Path dir(String name) {
    return new Path(hdfs.uri("/manifests-" + dirs++ + "/" + name));
  }
}
