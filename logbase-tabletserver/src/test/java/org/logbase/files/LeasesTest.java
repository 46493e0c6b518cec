package org.logbase.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.CannotObtainBlockLengthException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.log.AppendedRecord;
import org.logbase.log.Durability;
import org.logbase.log.LogConfig;
import org.logbase.log.LogPointer;
import org.logbase.log.LogRecord;
import org.logbase.log.LogWriter;
import org.logbase.log.RecordCodec;
import org.logbase.testing.Await;
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

  /**
   * The server's own reads of a segment it still writes never take its lease: the writer's next
   * flush would fail and push the log into a retry for nothing. Once the writer gave the file up
   * (its close failed: abandoned), the reads recover the lease and read it.
   */
  @Test
  void aServerRecoversTheLeaseOfAFileOnlyOnceItNoLongerWritesIt() throws Exception {
    try (MiniHdfs hdfs = new MiniHdfs(tmp)) {
      try (FileSystem server = serverClient(hdfs); FileRegistry files = new FileRegistry(server, 4)) {
        Path p = new Path("/logbase/servers/ts1/log/seg-1.log");
        byte[] flushed = "acknowledged records".getBytes(StandardCharsets.UTF_8);
        FSDataOutputStream out = server.create(p);
        files.created(7, p);
        out.write(flushed);
        out.hflush();
        hdfs.cluster().restartDataNode(0, true);
        hdfs.cluster().waitActive();

        List<Long> toldWriter = new CopyOnWriteArrayList<>();
        files.whenUnreadable(toldWriter::add);
        assertThrows(CannotObtainBlockLengthException.class, () -> files.readFully(7, 0, new byte[flushed.length]));
        assertEquals(List.of(7L), toldWriter, "its writer is told the file it writes cannot be read");
        DistributedFileSystem dfs = (DistributedFileSystem) server;
        assertFalse(dfs.isFileClosed(p), "the lease of a file this server writes stays its writer's");

        assertThrows(IOException.class, () -> files.close(7, () -> {
          throw new IOException("its pipeline is broken: the close failed");
        }));
        byte[] read = new byte[flushed.length];
        files.readFully(7, 0, read);
        assertArrayEquals(flushed, read);
        assertTrue(dfs.isFileClosed(p), "abandoned by its writer: recovered by the read");
      }
    }
  }

  /**
   * A log with no writes after its DataNode restarted: a read of its current segment fails, and the
   * log moves on to a new segment and closes that one, so that the next read recovers the lease if
   * need be and succeeds. Before, its records stayed unreadable until the next write to the log.
   */
  @Test
  void aFailedReadOfTheSegmentTheLogWritesMovesTheLogOnAndTheNextReadSucceeds() throws Exception {
    try (MiniHdfs hdfs = new MiniHdfs(tmp)) {
      try (FileSystem server = serverClient(hdfs); FileRegistry files = new FileRegistry(server, 4)) {
        LogWriter log = LogWriter.open(server, new Path("/logbase/servers/ts1/log"), LogConfig.DEFAULT, 1,
            FileIds.after(0), files, (batch, end) -> {});
        try {
          AppendedRecord r = log.append(List.of(LogRecord.data(1000, 0, 1, 0, 0, "k".getBytes(StandardCharsets.UTF_8),
              List.of(new LogRecord.Column("v", "acknowledged".getBytes(StandardCharsets.UTF_8))))), Durability.HFLUSH)
              .get(30, TimeUnit.SECONDS).get(0);
          long segment = LogPointer.segment(r.pointer());
          byte[] frame = new byte[r.frameLength()];
          hdfs.cluster().restartDataNode(0, true);
          hdfs.cluster().waitActive();

          assertThrows(IOException.class, () -> files.readFully(segment, LogPointer.offset(r.pointer()), frame));
          Await.until(Duration.ofSeconds(60), "the log writes on in a new segment", () -> log.currentSegment() != segment);
          Await.until(Duration.ofSeconds(60), "the record is read", () -> {
            try {
              files.readFully(segment, LogPointer.offset(r.pointer()), frame);
              return true;
            } catch (IOException e) {
              return false; // until the close of the segment, which the roll started, has ended
            }
          });
          assertEquals(r.record().lsn(), RecordCodec.decode(frame, 0, frame.length, "the test").lsn());
        } finally {
          log.close();
        }
      }
    }
  }

  /** The server's own HDFS client, which gives up soon on an open last block's length. */
  private static FileSystem serverClient(MiniHdfs hdfs) throws IOException {
    Configuration conf = new Configuration(hdfs.conf());
    // The client asks for the open last block's length 3 times, 4 s apart, by default.
    conf.setInt("dfs.client.retry.times.get-last-block-length", 1);
    conf.setInt("dfs.client.retry.interval-ms.get-last-block-length", 100);
    return FileSystem.newInstance(hdfs.uri("/"), conf);
  }

  private static byte[] readAll(InputStream in) throws Exception {
    return in.readAllBytes();
  }
}
