package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.testing.MiniHdfs;

/** A starting tablet server waits for its file system: a NameNode in safe mode, or not up yet. */
class FileSystemWaitTest {
  @TempDir Path dir;

  @Test
  void aStartWaitsUntilTheNameNodeLeavesSafeModeAndNoLonger() throws Exception {
    try (MiniHdfs hdfs = new MiniHdfs(dir.toFile())) {
      URI root = hdfs.uri("/logbase/servers/ts1");
      DistributedFileSystem dfs = hdfs.cluster().getFileSystem();
      dfs.setSafeMode(SafeModeAction.ENTER);
      CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> {
        try {
          FileSystemWait.await(root, hdfs.conf(), Duration.ofMinutes(2));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      IOException timedOut = assertThrows(IOException.class,
          () -> FileSystemWait.await(root, hdfs.conf(), Duration.ofSeconds(2)));
      assertTrue(timedOut.getMessage().contains("safe mode") && timedOut.getMessage().contains(FileSystemWait.WAIT_MS),
          timedOut.getMessage());
      assertFalse(waited.isDone(), "the start went on while the NameNode was in safe mode");
      dfs.setSafeMode(SafeModeAction.LEAVE);
      waited.get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void aNameNodeNotUpIsWaitedForWithinTheLimit() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free, so nothing answers there
    }
    // With the defaults: one call to a NameNode not up retries its connection for about ten seconds.
    long start = System.nanoTime();
    IOException timedOut = assertThrows(IOException.class, () -> FileSystemWait.await(
        URI.create("hdfs://localhost:" + port + "/logbase"), new Configuration(), Duration.ofSeconds(2)));
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(tookMs < 8000, "a poll ran far past the limit: " + tookMs + " ms");
    assertTrue(timedOut.getMessage().contains("did not take requests") && timedOut.getMessage().contains("Connection"),
        timedOut.getMessage());
  }

  @Test
  void aFailureThatIsNotTransientEndsTheWaitAtOnce() {
    IOException e = assertThrows(IOException.class,
        () -> FileSystemWait.await(URI.create("nosuch://host/logbase"), new Configuration(), Duration.ofMinutes(10)));
    assertFalse(e.getMessage().contains("did not take requests"), e.getMessage());
  }
}
