package org.logbase.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.log.LogFileSystems;
import org.logbase.testing.PausingFileSystem;

/**
 * Files by id: reads from any directory, a bounded number of open streams, a stream that fails a
 * read replaced once, ids never handed out twice.
 */
class FileRegistryTest {
  @TempDir Path dir;

  /** Counts the streams open on the inner file system. */
  static final class CountingFileSystem extends FilterFileSystem {
    final AtomicInteger open = new AtomicInteger();

    CountingFileSystem(FileSystem inner) {
      super(inner);
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      FSDataInputStream in = fs.open(f, bufferSize);
      open.incrementAndGet();
      return new FSDataInputStream(in) {
        @Override
        public void close() throws IOException {
          open.decrementAndGet();
          super.close();
        }
      };
    }
  }

  /** Its first stream fails every positioned read, as an HDFS stream does after a failed refetch. */
  static final class FirstStreamFailsFileSystem extends FilterFileSystem {
    final AtomicInteger opened = new AtomicInteger();

    FirstStreamFailsFileSystem(FileSystem inner) {
      super(inner);
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      FSDataInputStream in = fs.open(f, bufferSize);
      if (opened.incrementAndGet() > 1) {
        return in;
      }
      return new FSDataInputStream(in) {
        @Override
        public void readFully(long position, byte[] buffer) throws IOException {
          throw new IOException("offset < 0 || offset >= getFileLength(), offset=" + position);
        }
      };
    }
  }

  @Test
  void aStreamThatFailsAReadIsReplacedOnce() throws Exception {
    Path f = dir.resolve("file");
    Files.writeString(f, "contents");
    try (FileSystem raw = LogFileSystems.open(dir.toUri(), new Configuration())) {
      FirstStreamFailsFileSystem fs = new FirstStreamFailsFileSystem(raw);
      try (FileRegistry files = new FileRegistry(fs, 8)) {
        files.register(1, new org.apache.hadoop.fs.Path(f.toUri()));
        byte[] got = new byte[8];
        files.readFully(1, 0, got);
        assertArrayEquals("contents".getBytes(StandardCharsets.UTF_8), got, "read through a new stream");
        assertEquals(2, fs.opened.get());
        files.readFully(1, 0, got);
        assertEquals(2, fs.opened.get(), "which is kept");
        FileNotFoundException gone = assertThrows(FileNotFoundException.class, () -> files.readFully(2, 0, got));
        assertTrue(gone.getMessage().contains("2"), gone.getMessage());
      }
    }
  }

  /**
   * A file this server writes is closed with no read of it under way, and a read that comes during
   * the close waits for it (an HDFS DataNode before 3.5 loses a replica opened for a read as the
   * close finalizes it, HDFS-17342). Both halves fail if the close does not take the file's gate.
   */
  @Test
  void aWrittenFileIsClosedWithNoReadOfItUnderWay() throws Exception {
    Path f = dir.resolve("seg-1");
    Files.writeString(f, "contents");
    byte[] expected = "contents".getBytes(StandardCharsets.UTF_8);
    ExecutorService threads = Executors.newCachedThreadPool();
    try (FileSystem raw = LogFileSystems.open(dir.toUri(), new Configuration())) {
      PausingFileSystem fs = new PausingFileSystem(raw);
      try (FileRegistry files = new FileRegistry(fs, 8)) {
        files.created(1, new org.apache.hadoop.fs.Path(f.toUri()));
        // A read held where it opens its stream; the close comes meanwhile.
        PausingFileSystem.Pause pause = fs.pauseNextOpen("seg-1");
        Future<?> read = threads.submit(() -> {
          byte[] got = new byte[8];
          files.readFully(1, 0, got);
          assertArrayEquals(expected, got);
          return null;
        });
        pause.awaitReached();
        AtomicBoolean released = new AtomicBoolean();
        AtomicBoolean closedDuringRead = new AtomicBoolean();
        Thread closer = new Thread(() -> {
          try {
            files.close(1, () -> closedDuringRead.set(!released.get()));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        closer.start();
        awaitWaitingOrDone(closer);
        released.set(true); // the read goes on from here: a close before this met it under way
        pause.release();
        read.get(60, TimeUnit.SECONDS);
        closer.join(60_000);
        assertFalse(closedDuringRead.get(), "the close waited for the read under way");

        // A file whose close is under way: a read waits for it, then reads the closed file.
        files.created(2, new org.apache.hadoop.fs.Path(f.toUri()));
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch finishClose = new CountDownLatch(1);
        Future<?> close = threads.submit(() -> {
          files.close(2, () -> {
            closing.countDown();
            await(finishClose);
          });
          return null;
        });
        assertTrue(closing.await(60, TimeUnit.SECONDS));
        AtomicReference<Thread> readerThread = new AtomicReference<>();
        Future<?> later = threads.submit(() -> {
          readerThread.set(Thread.currentThread());
          byte[] got = new byte[8];
          files.readFully(2, 0, got);
          assertArrayEquals(expected, got);
          return null;
        });
        while (readerThread.get() == null) {
          Thread.onSpinWait();
        }
        awaitWaitingOrDone(readerThread.get());
        assertFalse(later.isDone(), "the read waits while the file is being closed");
        finishClose.countDown();
        close.get(60, TimeUnit.SECONDS);
        later.get(60, TimeUnit.SECONDS);
        AtomicBoolean closedAgain = new AtomicBoolean();
        files.close(2, () -> closedAgain.set(true));
        assertTrue(closedAgain.get(), "a file closed (or forgotten) already is simply closed: its stream must not leak");
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** Until {@code t} is blocked (on a lock or latch) or has ended. */
  private static void awaitWaitingOrDone(Thread t) {
    Set<Thread.State> stopped = Set.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.TERMINATED);
    while (!stopped.contains(t.getState())) {
      Thread.onSpinWait();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test did not let the close finish within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void readsFilesOfManyDirectoriesByIdWithABoundedNumberOfOpenStreams() throws Exception {
    List<org.apache.hadoop.fs.Path> paths = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      Path d = Files.createDirectories(dir.resolve("server" + (i % 3)));
      Path f = d.resolve("file" + i);
      Files.writeString(f, "contents of file " + i);
      paths.add(new org.apache.hadoop.fs.Path(f.toUri()));
    }
    try (FileSystem raw = LogFileSystems.open(dir.toUri(), new Configuration())) {
      CountingFileSystem fs = new CountingFileSystem(raw);
      try (FileRegistry files = new FileRegistry(fs, 8)) {
        for (int i = 1; i <= 40; i++) {
          files.register(i, paths.get(i - 1));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
          List<Future<?>> reads = new ArrayList<>();
          for (int t = 0; t < 4; t++) {
            int seed = t;
            reads.add(pool.submit(() -> {
              for (int n = 0; n < 2_000; n++) {
                int id = 1 + (n * 7 + seed * 13) % 40;
                byte[] want = ("contents of file " + id).getBytes(StandardCharsets.UTF_8);
                byte[] got = new byte[want.length - 9];
                files.readFully(id, 9, got);
                assertArrayEquals(java.util.Arrays.copyOfRange(want, 9, want.length), got, "file " + id);
              }
              return null;
            }));
          }
          for (Future<?> f : reads) {
            f.get();
          }
        } finally {
          pool.shutdownNow();
        }
        assertTrue(files.openStreams() <= 8, "open streams: " + files.openStreams());
        assertTrue(fs.open.get() <= 8, "streams open on the file system: " + fs.open.get());
        FileNotFoundException unknown = assertThrows(FileNotFoundException.class, () -> files.readFully(99, 0, new byte[1]));
        assertTrue(unknown.getMessage().contains("data file 99 is not known"), unknown.getMessage());
        assertThrows(IllegalStateException.class, () -> files.register(3, paths.get(4)), "an id names one file");
      }
      assertEquals(0, fs.open.get(), "closing the registry closes every stream");
    }
  }

  @Test
  void localFileIdsAreNeverHandedOutAgainAfterARestart() throws Exception {
    try (FileSystem fs = LogFileSystems.open(dir.toUri(), new Configuration())) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("file-ids").toUri());
      Set<Long> seen = new HashSet<>();
      long last = 0;
      for (int restart = 0; restart < 3; restart++) {
        LocalFileIds ids = new LocalFileIds(fs, file, 1);
        for (int i = 0; i < LocalFileIds.BLOCK + 5; i++) {
          long id = ids.next();
          assertTrue(id > last, id + " after " + last);
          assertTrue(seen.add(id));
          last = id;
        }
      }
      assertTrue(new LocalFileIds(fs, file, 10_000).next() >= 10_000, "above the files already present");
    }
  }
}
