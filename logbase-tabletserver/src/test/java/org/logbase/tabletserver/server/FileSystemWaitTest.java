package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.common.Bytes.utf8;
import static org.logbase.common.HybridTimestamp.LATEST;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Config;
import org.logbase.log.Durability;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.EngineOptions;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.testing.MiniHdfs;
import org.logbase.testing.TestTables;
import org.logbase.txn.TxnManager;

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

  /**
   * A NameNode that goes away while a starting server recovers its log (found by a chaos run: the
   * server exited). The recovery fails, waits for the NameNode, and runs again in the same process;
   * what the engine acknowledged before is all there.
   */
  @Test
  void aFileSystemLostDuringTheRecoveryIsWaitedForAndTheRecoveryRunsAgain() throws Exception {
    try (MiniHdfs hdfs = new MiniHdfs(dir.toFile())) {
      URI root = hdfs.uri("/logbase/servers/ts1");
      TabletDescriptor users = TestTables.whole(TestTables.USERS);
      Configuration hadoop = new Configuration(hdfs.conf());
      hadoop.setInt("ipc.client.connect.max.retries", 0); // a refused connection fails the recovery at once
      EngineOptions options = EngineOptions.of(root, Config.empty(), List.of(users)).withHadoop(hadoop);
      try (StorageEngine e = StorageEngine.open(options); TxnManager txns = TxnManager.standalone(e)) {
        for (int i = 0; i < 100; i++) {
          txns.put(e.tablet(users.id()), utf8("row" + i), Map.of("name", utf8("n" + i)), Durability.HFLUSH);
        }
      }
      AtomicInteger attempts = new AtomicInteger();
      List<CompletableFuture<Void>> restarts = new ArrayList<>();
      try (StorageEngine e = FileSystemWait.openWhenReady(root, hdfs.conf(), Duration.ofMinutes(2), () -> {
        if (attempts.incrementAndGet() > 1) {
          return StorageEngine.open(options);
        }
        hdfs.cluster().shutdownNameNode(0);
        try {
          return StorageEngine.open(options);
        } finally {
          // Back only once this attempt has failed: the next must wait for it.
          restarts.add(CompletableFuture.runAsync(() -> {
            try {
              hdfs.cluster().restartNameNode(0, false);
            } catch (IOException failed) {
              throw new UncheckedIOException(failed);
            }
          }));
        }
      })) {
        assertEquals(2, attempts.get(), "the recovery ran again once, after the NameNode came back");
        Tablet t = e.tablet(users.id());
        for (int i = 0; i < 100; i++) {
          assertArrayEquals(utf8("n" + i), t.get(utf8("row" + i), null, LATEST).value("name"), "row" + i);
        }
      }
      restarts.get(0).get(60, TimeUnit.SECONDS);
    }
  }

  /** The recovery replays with threads of its own, whose failures reach it wrapped. */
  @Test
  void aTransientFailureThatReachesTheOpenWrappedIsRetriedToo() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    String opened = FileSystemWait.openWhenReady(dir.toUri(), new Configuration(), Duration.ofMinutes(1), () -> {
      if (attempts.incrementAndGet() == 1) {
        throw new CompletionException(new ConnectException("Call From vm to localhost:8020 failed: Connection refused"));
      }
      return "opened";
    });
    assertEquals("opened", opened);
    assertEquals(2, attempts.get());
  }

  /** A recovery that keeps failing for the moment is not retried past the limit: the start fails with the last failure. */
  @Test
  @Timeout(30) // without the limit it would retry for ever
  void aTransientFailureThatNeverEndsEndsTheRetriesAtTheLimit() {
    AtomicInteger attempts = new AtomicInteger();
    long start = System.nanoTime();
    CompletionException e = assertThrows(CompletionException.class, () -> FileSystemWait.openWhenReady(dir.toUri(),
        new Configuration(), Duration.ofSeconds(2), () -> {
          throw new CompletionException(new ConnectException("attempt " + attempts.incrementAndGet()
              + ": Connection refused"));
        }));
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(attempts.get() >= 2, "retried within the limit: " + attempts.get() + " attempts");
    assertEquals("attempt " + attempts.get() + ": Connection refused", e.getCause().getMessage());
    assertTrue(tookMs >= 2000 && tookMs < 8000, "gave up after " + tookMs + " ms, not at the 2 s limit");
  }

  @Test
  void aFailureDuringTheRecoveryThatIsNotTransientIsNotRetried() {
    AtomicInteger attempts = new AtomicInteger();
    IOException e = assertThrows(IOException.class, () -> FileSystemWait.openWhenReady(dir.toUri(),
        new Configuration(), Duration.ofMinutes(10), () -> {
          attempts.incrementAndGet();
          throw new FileNotFoundException("log segment 7 is gone");
        }));
    assertEquals("log segment 7 is gone", e.getMessage());
    assertEquals(1, attempts.get());
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
