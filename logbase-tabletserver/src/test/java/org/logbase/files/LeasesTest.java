package org.logbase.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.CannotObtainBlockLengthException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.testing.MiniHdfs;

class LeasesTest {
  @TempDir
  File tmp;

  /**
   * A log segment abandoned by a live server after a write failed (its close failed too), then its
   * DataNode restarted: the replica waits for recovery, and no DataNode can tell the length of the
   * open last block. A plain open fails until the NameNode's hard limit recovers the lease.
   */
  @Test
  void aFileWhoseDataNodeRestartedWhileItWasOpenIsReadAfterItsLeaseIsRecovered() throws Exception {
    try (MiniHdfs hdfs = new MiniHdfs(tmp);
        FileSystem writer = FileSystem.newInstance(hdfs.uri("/"), hdfs.conf());
        FileSystem reader = FileSystem.newInstance(hdfs.uri("/"), hdfs.conf())) {
      Path p = new Path("/logbase/servers/ts1/log/seg-1.log");
      byte[] flushed = "acknowledged records".getBytes(StandardCharsets.UTF_8);
      FSDataOutputStream out = writer.create(p);
      out.write(flushed);
      out.hflush(); // never closed: its writer lives on, with the file open
      hdfs.cluster().restartDataNode(0, true);
      hdfs.cluster().waitActive();

      assertThrows(CannotObtainBlockLengthException.class, () -> reader.open(p).close(),
          "the case this is about: an open file whose last block's length no DataNode can tell");
      try (FSDataInputStream in = Leases.open(reader, p)) {
        assertArrayEquals(flushed, readAll(in));
      }
    }
  }

  private static byte[] readAll(InputStream in) throws Exception {
    return in.readAllBytes();
  }
}
