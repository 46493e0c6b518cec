package org.logbase.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logbase.common.LogUnavailableException;
import org.logbase.files.FileRegistry;
import org.logbase.files.ReadGuard;
import org.logbase.files.WrittenFiles;
import org.logbase.testing.Await;
import org.logbase.testing.FlakyFileSystem;

class LogWriterTest {
  @TempDir Path tmp;
  FlakyFileSystem fs;
  org.apache.hadoop.fs.Path dir;
  final List<AppendedRecord> applied = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fs = new FlakyFileSystem(LogFileSystems.open(URI.create("file:///"), new Configuration()));
    dir = new org.apache.hadoop.fs.Path(tmp.toUri().toString(), "log");
  }

  @AfterEach
  void tearDown() throws Exception {
    fs.close();
  }

  static LogRecord rec(int i) {
    return LogRecord.data(1000 + i, 0, 1, 0, 0, ("key" + i).getBytes(StandardCharsets.UTF_8),
        List.of(new LogRecord.Column("v", ("value" + i).getBytes(StandardCharsets.UTF_8))));
  }

  LogWriter open(LogConfig config) throws Exception {
    return LogWriter.open(fs, dir, config, 1, (batch, end) -> {
      synchronized (applied) {
        applied.addAll(batch);
      }
    });
  }

  @Test
  void concurrentWritersShareFlushesAndEveryRecordIsReadableWhereItWasAcknowledged() throws Exception {
    int threads = 8;
    int perThread = 300;
    List<AppendedRecord> acked = java.util.Collections.synchronizedList(new ArrayList<>());
    try (LogWriter w = open(LogConfig.DEFAULT.withSegmentBytes(64 << 10))) {
      List<Thread> ts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * perThread;
        Thread th = new Thread(() -> {
          for (int i = 0; i < perThread; i++) {
            acked.addAll(w.append(List.of(rec(base + i)), Durability.HFLUSH).join());
          }
        });
        ts.add(th);
        th.start();
      }
      for (Thread th : ts) {
        th.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(!th.isAlive(), "writer thread finished");
      }
      LogStats s = w.stats();
      assertEquals(threads * perThread, s.records());
      assertTrue(s.batches() < s.records(), "group commit put several records in a flush: " + s);
      assertTrue(s.rolls() > 0, "small segments rolled: " + s);
    }
    assertEquals(threads * perThread, acked.size());
    assertEquals(acked.size(), applied.size(), "the listener saw every record before its ack");

    try (FileRegistry files = new FileRegistry(fs, 16)) {
      SegmentFiles.register(files, fs, dir);
      RecordReader reader = new RecordReader(files);
      for (AppendedRecord a : acked) {
        LogRecord back = reader.read(a.pointer(), a.frameLength());
        assertEquals(a.record().lsn(), back.lsn());
        assertEquals(new String(a.record().key(), StandardCharsets.UTF_8), new String(back.key(), StandardCharsets.UTF_8));
      }
    }
    Map<Long, LogRecord> byLsn = new TreeMap<>();
    LogScanner.scan(fs, dir, LogPosition.START, LogConfig.DEFAULT.maxFrameBytes(),
        d -> { throw new AssertionError("no damage expected: " + d); },
        r -> byLsn.put(r.record().lsn(), r.record()));
    assertEquals(threads * perThread, byLsn.size());
    assertEquals(1L, byLsn.keySet().iterator().next());
  }

  /**
   * A scan reads each segment under its guard's hold of that segment (so that a live log's writer
   * does not close the segment meanwhile: HDFS-17342, see FileRegistry), and of that one only.
   */
  @Test
  void aScanReadsEachSegmentUnderItsGuardsHold() throws Exception {
    try (LogWriter w = open(LogConfig.DEFAULT.withSegmentBytes(4 << 10))) {
      for (int i = 0; i < 300; i++) {
        w.append(List.of(rec(i)), Durability.HFLUSH).get();
      }
    }
    Set<Long> held = new HashSet<>();
    Set<Long> read = new TreeSet<>();
    ReadGuard guard = id -> {
      assertTrue(held.add(id), "segment " + id + " held twice");
      return () -> held.remove(id);
    };
    LogScanner.Result r = LogScanner.scan(fs, dir, LogPosition.START, null, LogConfig.DEFAULT.maxFrameBytes(),
        d -> { throw new AssertionError("no damage expected: " + d); }, SegmentScanner.RowFilter.ALL, LogSeals.NONE,
        guard, a -> {
          long segment = LogPointer.segment(a.pointer());
          assertEquals(Set.of(segment), held, "segments held while a record of " + segment + " is read");
          read.add(segment);
        });
    assertEquals(300, r.records());
    assertTrue(read.size() > 2, "records in several segments: " + read);
    assertEquals(Set.of(), held, "every hold ended");
  }

  @Test
  void aFailedFlushRollsToANewSegmentAndRetriesTheBatch() throws Exception {
    try (LogWriter w = open(LogConfig.DEFAULT)) {
      w.append(List.of(rec(1)), Durability.HFLUSH).get();
      long before = w.currentSegment();
      fs.failNextFlushes(1);
      List<AppendedRecord> r = w.append(List.of(rec(2), rec(3)), Durability.HSYNC).get();
      assertEquals(before + 1, w.currentSegment());
      assertEquals(before + 1, LogPointer.segment(r.get(0).pointer()));
      assertEquals(1, w.stats().retries());
      w.append(List.of(rec(4)), Durability.HFLUSH).get();
    }
    List<Long> lsns = new ArrayList<>();
    LogScanner.scan(fs, dir, LogPosition.START, LogConfig.DEFAULT.maxFrameBytes(), d -> {}, a -> lsns.add(a.record().lsn()));
    assertTrue(lsns.containsAll(List.of(1L, 2L, 3L, 4L)), lsns.toString());
    assertEquals(List.of(2L, 3L, 4L), lsns.subList(lsns.size() - 3, lsns.size()), "the retry is complete in the new segment");
  }

  @Test
  void whenTheRetryFailsTooTheBatchIsWrittenAgainUntilItLandsWhileNewWritesAreRefused() throws Exception {
    try (LogWriter w = open(LogConfig.DEFAULT)) {
      w.append(List.of(rec(1)), Durability.HFLUSH).get();
      fs.failNextFlushes(Integer.MAX_VALUE); // HDFS down
      CompletableFuture<List<AppendedRecord>> stuck = w.append(List.of(rec(2)), Durability.HFLUSH);
      Await.until("the failed batch is being written again", w::isRetrying);
      ExecutionException refused = assertThrows(ExecutionException.class,
          () -> w.append(List.of(rec(3)), Durability.HFLUSH).get(30, TimeUnit.SECONDS));
      assertInstanceOf(LogUnavailableException.class, refused.getCause());
      assertTrue(refused.getCause().getMessage().contains("this write was not taken"), refused.getCause().getMessage());
      assertFalse(stuck.isDone(), "the batch that may be in the log is neither failed nor acknowledged");
      assertEquals(1, applied.size());
      fs.failNextFlushes(0); // HDFS back
      List<AppendedRecord> landed = stuck.get(30, TimeUnit.SECONDS);
      assertEquals(2L, landed.get(0).record().lsn());
      assertFalse(w.isRetrying());
      assertFalse(w.isFailed());
      assertEquals(3L, w.append(List.of(rec(4)), Durability.HFLUSH).get(30, TimeUnit.SECONDS).get(0).record().lsn());
      assertTrue(w.stats().retries() >= 2, "written on a new segment again: " + w.stats().retries());
    }
    assertEquals(3, applied.size(), "the late batch and the write after it were applied");
    Set<Long> lsns = new TreeSet<>();
    LogScanner.scan(fs, dir, LogPosition.START, LogConfig.DEFAULT.maxFrameBytes(), d -> {}, a -> lsns.add(a.record().lsn()));
    assertEquals(Set.of(1L, 2L, 3L), lsns, "the refused write is not in the log");
  }

  /**
   * @param headersLand whether each new segment's header lands and only the batch fails (the close
   *     then finds a segment whose pipeline broke, which it must abandon, not close)
   */
  @ParameterizedTest(name = "headers land: {0}")
  @ValueSource(booleans = {false, true})
  void aCloseEndsTheRetriesOfABatchThatCannotBeWritten(boolean headersLand) throws Exception {
    LogWriter w = open(LogConfig.DEFAULT);
    w.append(List.of(rec(1)), Durability.HFLUSH).get();
    if (headersLand) {
      fs.failNextFlushesButFirstOnes(Integer.MAX_VALUE);
    } else {
      fs.failNextFlushes(Integer.MAX_VALUE);
    }
    CompletableFuture<List<AppendedRecord>> stuck = w.append(List.of(rec(2)), Durability.HFLUSH);
    Await.until("the failed batch is being written again", w::isRetrying);
    closeWithin30s(w);
    ExecutionException e = assertThrows(ExecutionException.class, () -> stuck.get(30, TimeUnit.SECONDS));
    assertInstanceOf(LogUnavailableException.class, e.getCause());
    assertTrue(w.isFailed());
    assertFalse(w.stoppedForGood().isDone(), "a close is no failure its owner must act on");
    assertEquals(1, applied.size(), "nothing after the failure was applied");
  }

  @Test
  void aBugMetWhileABatchIsWrittenAgainFailsItsCallersAndStopsTheLogInsteadOfLeavingThemWaiting() throws Exception {
    LogWriter w = open(LogConfig.DEFAULT);
    w.append(List.of(rec(1)), Durability.HFLUSH).get();
    fs.failNextFlushes(Integer.MAX_VALUE);
    CompletableFuture<List<AppendedRecord>> stuck = w.append(List.of(rec(2)), Durability.HFLUSH);
    Await.until("the failed batch is being written again", w::isRetrying);
    fs.throwOnNextCreate(new IllegalStateException("a bug in the file system client"));
    ExecutionException e = assertThrows(ExecutionException.class, () -> stuck.get(30, TimeUnit.SECONDS));
    assertInstanceOf(LogUnavailableException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("outcome is unknown"), e.getCause().getMessage());
    assertTrue(w.isFailed());
    assertFalse(w.isRetrying(), "no longer retrying: the log stopped");
    assertInstanceOf(IllegalStateException.class, w.stoppedForGood().get(30, TimeUnit.SECONDS),
        "its owner hears why the log stopped");
    ExecutionException refused = assertThrows(ExecutionException.class,
        () -> w.append(List.of(rec(3)), Durability.HFLUSH).get(30, TimeUnit.SECONDS));
    assertTrue(refused.getCause().getMessage().contains("stopped accepting writes"), refused.getCause().getMessage());
    fs.failNextFlushes(0);
    closeWithin30s(w);
    assertEquals(1, applied.size(), "nothing after the failure was applied");
  }

  @Test
  void aTimeoutWhileTheBatchIsWrittenAgainIsOneMoreFailedAttemptNotTheEndOfTheLog() throws Exception {
    try (LogWriter w = open(LogConfig.DEFAULT)) {
      w.append(List.of(rec(1)), Durability.HFLUSH).get();
      fs.failNextFlushes(Integer.MAX_VALUE);
      CompletableFuture<List<AppendedRecord>> stuck = w.append(List.of(rec(2)), Durability.HFLUSH);
      Await.until("the failed batch is being written again", w::isRetrying);
      // A NameNode that does not answer in time: an InterruptedIOException, yet nothing was interrupted.
      fs.failNextCreates(2, () -> new SocketTimeoutException("60000 millis timeout while waiting for channel"));
      Await.until("the timeouts were met", () -> fs.createsLeftToFail() == 0);
      fs.failNextFlushes(0);
      assertEquals(2L, stuck.get(30, TimeUnit.SECONDS).get(0).record().lsn(), "the batch landed");
      assertFalse(w.isFailed());
    }
  }

  /** Closes {@code w}, failing the test if the close throws or hangs. */
  private static void closeWithin30s(LogWriter w) throws Exception {
    CompletableFuture.runAsync(() -> {
      try {
        w.close();
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    }).get(30, TimeUnit.SECONDS);
  }

  @Test
  void aFailedSegmentCreationIsRetriedByTheNextBatch() throws Exception {
    try (LogWriter w = open(LogConfig.DEFAULT.withSegmentBytes(4096))) {
      fs.failNextCreates(1);
      // The first append crosses the segment size: rolling fails; the next write retries on a new segment.
      byte[] big = new byte[5000];
      w.append(List.of(LogRecord.data(1, 0, 1, 0, 0, new byte[] {1}, List.of(new LogRecord.Column("v", big)))),
          Durability.HFLUSH).get();
      List<AppendedRecord> r = w.append(List.of(rec(9)), Durability.HFLUSH).get();
      assertEquals(1, r.size());
      assertTrue(!w.isFailed());
    }
  }

  @Test
  void batchesReachTheListenerOneAtATimeInLogOrderWhicheverThreadAcknowledgesThem() throws Exception {
    java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicLong lastLsn = new java.util.concurrent.atomic.AtomicLong();
    List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.Set<String> ackThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    LogWriter w = LogWriter.open(fs, dir, LogConfig.DEFAULT, 1, (batch, end) -> {
      if (inside.incrementAndGet() != 1) {
        problems.add("two batches in the listener at once");
      }
      for (AppendedRecord a : batch) {
        if (a.record().lsn() != lastLsn.get() + 1) {
          problems.add("lsn " + a.record().lsn() + " after " + lastLsn.get());
        }
        lastLsn.set(a.record().lsn());
      }
      ackThreads.add(Thread.currentThread().getName().replaceAll("-log$", ""));
      inside.decrementAndGet();
    });
    try (w) {
      for (int round = 0; round < 20; round++) {
        // A lone request on an idle log (acknowledged by the writer itself) ...
        w.append(List.of(rec(round)), Durability.HFLUSH).get(30, TimeUnit.SECONDS);
        // ... then eight at once (batches of several requests go to the acknowledger).
        List<CompletableFuture<List<AppendedRecord>>> burst = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          burst.add(w.append(List.of(rec(1000 + round * 8 + i)), Durability.HFLUSH));
        }
        for (CompletableFuture<List<AppendedRecord>> f : burst) {
          f.get(30, TimeUnit.SECONDS);
        }
      }
    }
    assertEquals(List.of(), problems);
    assertEquals(20 * 9, lastLsn.get());
    assertEquals(java.util.Set.of("log-writer", "log-acker"), ackThreads, "both ways were taken");
  }

  /**
   * A failure applying a durable batch leaves the indexes without (some of) what the log holds: its
   * callers fail, and the log takes no more writes, and says so, without hanging its close. A
   * RuntimeException used to let the log go on, and a transaction whose COMMIT was durable but not
   * applied could be aborted in memory afterwards and written ABORT behind its own COMMIT.
   */
  @ParameterizedTest(name = "an Error: {0}")
  @ValueSource(booleans = {true, false})
  void aListenerThatThrowsFailsItsBatchAndStopsWritesWithoutHangingClose(boolean error) throws Exception {
    Throwable failure = error ? new AssertionError("index update blew up")
        : new IllegalStateException("index update failed halfway");
    LogWriter w = LogWriter.open(fs, dir, LogConfig.DEFAULT, 1, (batch, end) -> {
      if (failure instanceof Error e) {
        throw e;
      }
      throw (RuntimeException) failure;
    });
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> w.append(List.of(rec(1)), Durability.HFLUSH).get(30, TimeUnit.SECONDS));
    assertInstanceOf(LogUnavailableException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("outcome is unknown"), e.getCause().getMessage());
    assertSame(failure, e.getCause().getCause());
    assertTrue(w.isFailed(), "stopped before its callers heard");
    assertSame(failure, w.stoppedForGood().get(30, TimeUnit.SECONDS), "its owner hears why the log stopped");
    assertTrue(w.isFailed());
    ExecutionException later = assertThrows(ExecutionException.class,
        () -> w.append(List.of(rec(2)), Durability.HFLUSH).get(30, TimeUnit.SECONDS));
    assertInstanceOf(LogUnavailableException.class, later.getCause());
    closeWithin30s(w);
  }

  @Test
  void aNewSegmentIdBelowTheLogsNewestSegmentIsRefused() throws Exception {
    try (LogWriter w = open(LogConfig.DEFAULT)) {
      w.append(List.of(rec(1)), Durability.HFLUSH).join();
    }
    // An allocator that lost its state hands out 1 again: the new segment would sort before the old
    // ones and recovery from a checkpoint position would skip it. The first write opens the segment.
    try (LogWriter w = LogWriter.open(fs, dir, LogConfig.DEFAULT, 10, () -> 1, WrittenFiles.UNREAD, (batch, end) -> { })) {
      CompletionException e = assertThrows(CompletionException.class,
          () -> w.append(List.of(rec(10)), Durability.HFLUSH).join());
      StringBuilder messages = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append(" / ");
      }
      assertTrue(messages.toString().contains("not above the log's last segment"), messages.toString());
    }
  }
}
