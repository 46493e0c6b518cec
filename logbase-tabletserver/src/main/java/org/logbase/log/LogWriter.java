package org.logbase.log;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.files.FileIds;
import org.logbase.files.WrittenFiles;
import org.logbase.common.LogUnavailableException;
import org.logbase.common.Threads;
import org.logbase.common.ValueTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends records to the log with group commit: callers enqueue requests; one writer thread takes
 * everything queued (up to a batch size), writes it and flushes once; a second thread, the
 * acknowledger, then hands each durable batch to the {@link Listener} and only after that completes
 * the callers' futures. Nothing is acknowledged before the flush that covers it returned.
 *
 * <p>Why two threads: waking the blocked callers of a batch (one thread wake-up each) takes about
 * as long as a flush of it. Done on the writer thread, the log would sit idle meanwhile; on the
 * acknowledger, the next batch is already being written and flushed, so the log is kept busy and
 * batches stay small (lower latency for the same throughput). Batches still reach the listener one
 * at a time, in log order. A batch of a single request on an otherwise idle log (no request waiting,
 * no batch with the acknowledger) the writer acknowledges itself: handing it over would only add a
 * thread wake-up to that request's latency.
 *
 * <p>This class owns group commit only; the segment files, LSNs, rolling and the retry of a failed
 * batch on a new segment are {@link SegmentedLog}'s, one file is a {@link SegmentFile}.
 *
 * <p>If that retry fails too (HDFS down: its only DataNode dead or paused, say), the batch is written
 * again, whole and with its LSNs, on a new segment each time, after 0.1 s, 0.2 s, ... up to {@link
 * #MAX_RETRY_PAUSE} apart, until it lands: it may be in the log already, so it is not failed (a
 * replay would apply what its caller was told had failed) but made durable and acknowledged late.
 * Meanwhile every request waiting behind it, and every new one, is refused at once with {@link
 * LogUnavailableException}: none of those is in the log. A close while the batch waits ends the
 * retries; the batch then fails with its outcome unknown (the next replay decides it), and the log
 * takes no more writes, as after an {@link Error} in the listener.
 */
public final class LogWriter implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LogWriter.class);
  /** The longest pause between two writes of a batch that could not be written. */
  static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(5);
  private static final Duration FIRST_RETRY_PAUSE = Duration.ofMillis(100);

  /**
   * Called for every durable batch before any of it is acknowledged: one batch at a time, in log
   * order, on the acknowledger (or on the writer thread when the log has nothing else to do).
   */
  @FunctionalInterface
  public interface Listener {
    /**
     * @param records the batch, in log order
     * @param end the log position just after the batch: replaying from there skips all of it
     */
    void onDurable(List<AppendedRecord> records, LogPosition end);
  }

  private static final class Request {
    final List<LogRecord> records;
    final byte[][] frames;
    final boolean sync;
    final long bytes;
    final CompletableFuture<List<AppendedRecord>> done = new CompletableFuture<>();

    Request(List<LogRecord> records, byte[][] frames, boolean sync, long bytes) {
      this.records = records;
      this.frames = frames;
      this.sync = sync;
      this.bytes = bytes;
    }
  }

  private static final Request CLOSE = new Request(List.of(), new byte[0][], false, 0);
  /** Wakes the writer for the segments in {@link #rollAwayFrom}. */
  private static final Request ROLL = new Request(List.of(), new byte[0][], false, 0);

  /** A flushed batch on its way to the listener and the callers. */
  private record Durable(List<Request> batch, List<AppendedRecord> records, LogPosition end) {}

  private static final Durable ACKER_STOP = new Durable(List.of(), List.of(), null);

  private final Path dir;
  private final LogConfig config;
  private final Listener listener;
  private final SegmentedLog log;
  private final BlockingQueue<Request> queue = new LinkedBlockingQueue<>();
  private final Object stateLock = new Object();
  private final Thread thread;
  private final BlockingQueue<Durable> durable = new LinkedBlockingQueue<>();
  /** Batches given to the acknowledger and not yet acknowledged by it. */
  private final AtomicInteger handedOver = new AtomicInteger();
  private final Thread acker;

  // Guarded by stateLock for writes; read without it for a fast refusal.
  private volatile boolean closed;
  private volatile Throwable failure;
  /** Set by the acknowledger when a durable batch could not be applied: no later one is. */
  private volatile boolean applyFailed;
  /** Why the batch being written again could not be written, while it is; else null. */
  private volatile Outage outage;
  /** Segments a read could not read while this writer still had them open: written no further. */
  private final Set<Long> rollAwayFrom = ConcurrentHashMap.newKeySet();
  /** Completed with the cause when the log stops taking writes for good, unless a close stopped it. */
  private final CompletableFuture<Throwable> stoppedForGood = new CompletableFuture<>();

  private record Outage(Throwable cause, Instant since) {}

  // Statistics, written by the writer thread only.
  private volatile long batches;
  private volatile long records;

  private LogWriter(
      FileSystem fs, Path dir, LogConfig config, long firstLsn, FileIds ids, WrittenFiles files,
      Listener listener) throws IOException {
    this.dir = dir;
    this.config = config;
    this.listener = listener;
    List<Long> existing = SegmentFiles.list(fs, dir);
    this.log = new SegmentedLog(fs, dir, config, firstLsn, existing.isEmpty() ? 0 : existing.get(existing.size() - 1),
        ids, files);
    this.thread = Threads.newDaemon("log-writer-" + dir.getName(), this::run);
    this.acker = Threads.newDaemon("log-acker-" + dir.getName(), this::acknowledge);
  }

  /**
   * Opens a writer that continues the log in {@code dir} with a new segment whose id is above every
   * existing one's, counted in memory (a log no other process allocates file ids for: tests, tools).
   *
   * @param firstLsn the LSN of the first record this writer appends (one above the highest in the
   *     log)
   */
  public static LogWriter open(
      FileSystem fs, Path dir, LogConfig config, long firstLsn, Listener listener)
      throws IOException {
    List<Long> existing = SegmentFiles.list(fs, dir);
    return open(fs, dir, config, firstLsn, FileIds.after(existing.isEmpty() ? 0 : existing.get(existing.size() - 1)),
        WrittenFiles.UNREAD, listener);
  }

  /**
   * Opens a writer that continues the log in {@code dir} with a new segment.
   *
   * @param ids where segment ids come from: above every existing segment's, increasing
   * @param files told of every segment file created before a record is written to it, and closes each
   */
  public static LogWriter open(
      FileSystem fs, Path dir, LogConfig config, long firstLsn, FileIds ids, WrittenFiles files,
      Listener listener) throws IOException {
    fs.mkdirs(dir);
    LogWriter w = new LogWriter(fs, dir, config, firstLsn, ids, files, listener);
    files.whenUnreadable(w::rollAwayFrom);
    w.acker.start();
    w.thread.start();
    return w;
  }

  /**
   * Appends records as one unit of group commit: they land contiguously, in order, in one flush.
   *
   * @return completes with the records' places once durable, or exceptionally with {@link
   *     LogUnavailableException}
   */
  public CompletableFuture<List<AppendedRecord>> append(List<LogRecord> recs, Durability durability) {
    byte[][] frames = new byte[recs.size()][];
    long total = 0;
    for (int i = 0; i < frames.length; i++) {
      frames[i] = RecordCodec.encode(recs.get(i));
      if (frames[i].length > config.maxFrameBytes()) {
        return CompletableFuture.failedFuture(
            new ValueTooLargeException("log record", frames[i].length, config.maxFrameBytes()));
      }
      total += frames[i].length;
    }
    Request r = new Request(recs, frames, durability == Durability.HSYNC, total);
    synchronized (stateLock) {
      if (failure != null) {
        return CompletableFuture.failedFuture(unavailable());
      }
      if (outage != null) {
        return CompletableFuture.failedFuture(refused(outage));
      }
      if (closed) {
        return CompletableFuture.failedFuture(new LogUnavailableException("the log is closed", null));
      }
      queue.add(r);
    }
    return r.done;
  }

  /** Whether the log has stopped accepting writes for good (closed while it retried, a failure applying a batch). */
  public boolean isFailed() {
    return failure != null;
  }

  /**
   * Completes, with the cause, when the log stops taking writes for good while it is not being
   * closed: a failure applying a durable batch, a bug met while writing one, the writer interrupted,
   * a new segment's id refused. Nothing brings such a log back; its owner must stop using it (a
   * tablet server exits, so that its tablets are recovered from the log elsewhere).
   */
  public CompletableFuture<Throwable> stoppedForGood() {
    return stoppedForGood.copy();
  }

  /**
   * Asks the writer to go on in a new segment if it still writes segment {@code number}, and to
   * close that one: a read of it failed. After its DataNode restarted under it, the length of its
   * last block is known to nobody until the file is closed or its lease recovered, and this
   * writer, which holds the lease, notices nothing until its next flush: on a log with no writes,
   * reads of the segment's records failed until their deadline. Done between two batches.
   */
  public void rollAwayFrom(long number) {
    if (rollAwayFrom.add(number)) {
      queue.add(ROLL);
    }
  }

  /** Whether a batch that could not be written is being written again (and new writes are refused). */
  public boolean isRetrying() {
    return outage != null;
  }

  public LogStats stats() {
    return new LogStats(batches, records, log.bytes(), log.syncs(), log.rolls(), log.retries());
  }

  /** The segment currently written to. */
  public long currentSegment() {
    return log.segmentNumber();
  }

  public Path directory() {
    return dir;
  }

  /** Writes out everything queued so far, then closes the current segment. */
  @Override
  public void close() throws IOException {
    synchronized (stateLock) {
      if (closed) {
        return;
      }
      closed = true;
      queue.add(CLOSE);
      stateLock.notifyAll(); // ends the retries of a batch that cannot be written
    }
    try {
      thread.join(); // it hands the acknowledger its stop after the last batch
      acker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while closing the log");
    }
    log.close();
  }

  private void run() {
    try {
      writeBatches();
    } catch (Throwable t) {
      // Nobody would serve the queue any more: refuse new writes and fail the waiting ones.
      stopWrites(t);
      throw t;
    } finally {
      durable.add(ACKER_STOP); // after every batch the writer handed over
    }
  }

  private void writeBatches() {
    List<Request> batch = new ArrayList<>();
    while (true) {
      batch.clear();
      Request first;
      try {
        first = queue.take();
      } catch (InterruptedException e) {
        LOG.error("log writer interrupted; stopping writes");
        stopWrites(e);
        return;
      }
      boolean closeSeen = first == CLOSE;
      boolean rollSeen = first == ROLL;
      long batchBytes = 0;
      if (!closeSeen && !rollSeen) {
        batch.add(first);
        batchBytes = first.bytes;
      }
      while (!closeSeen && batchBytes < config.maxBatchBytes()) {
        Request next = queue.poll();
        if (next == null) {
          break;
        }
        if (next == CLOSE) {
          closeSeen = true;
        } else if (next == ROLL) {
          rollSeen = true;
        } else {
          batch.add(next);
          batchBytes += next.bytes;
        }
      }
      if (!batch.isEmpty()) {
        if (failure != null) {
          batch.forEach(r -> r.done.completeExceptionally(unavailable()));
        } else {
          process(batch);
        }
      }
      if (rollSeen && failure == null) {
        for (Iterator<Long> i = rollAwayFrom.iterator(); i.hasNext(); ) {
          long number = i.next();
          i.remove();
          log.rollAwayFrom(number);
        }
      }
      if (closeSeen) {
        return;
      }
    }
  }

  private void process(List<Request> batch) {
    boolean sync = false;
    List<List<LogRecord>> recs = new ArrayList<>(batch.size());
    List<byte[][]> frames = new ArrayList<>(batch.size());
    int count = 0;
    for (Request r : batch) {
      recs.add(r.records);
      frames.add(r.frames);
      count += r.frames.length;
      sync |= r.sync;
    }
    SegmentedLog.Written w;
    try {
      SegmentedLog.Batch sealed = log.seal(recs, frames, sync);
      try {
        w = log.write(sealed);
      } catch (IOException e) {
        w = e instanceof SegmentIdRefusedException ? null : writeUntilItLands(sealed, e);
        if (w == null) {
          stopWrites(e);
          batch.forEach(r -> r.done.completeExceptionally(outcomeUnknown()));
          return;
        }
      }
    } catch (RuntimeException | Error e) {
      // A bug or the JVM failing mid-write: the batch may be in the log or not, and this writer's
      // state is not to be trusted. Its callers must hear (they hold row locks while they wait).
      synchronized (stateLock) {
        outage = null;
      }
      stopWrites(e);
      batch.forEach(r -> r.done.completeExceptionally(outcomeUnknown()));
      throw e;
    }
    // Counted before the acks so that a caller who saw its ack also sees it in stats().
    batches++;
    records += count;
    Durable d = new Durable(new ArrayList<>(batch), w.records(), w.end());
    if (batch.size() == 1 && queue.isEmpty() && handedOver.get() == 0) {
      // One caller, nothing to write next and no earlier batch still with the acknowledger:
      // acknowledging here keeps log order, costs one wake-up as handing over would, and takes the
      // acknowledger's wake-up off the path of a lone request (a tablet server's coalesced batch).
      acknowledge(d);
    } else {
      handedOver.incrementAndGet();
      durable.add(d);
    }
  }

  /**
   * Writes a batch whose write and retry failed again and again, on a new segment each time, until
   * it lands; refuses every other request meanwhile. Null if the log was closed (or the writer
   * interrupted) first, or a new segment's id was refused: the caller stops the log then.
   */
  private SegmentedLog.Written writeUntilItLands(SegmentedLog.Batch batch, IOException cause) {
    Instant since = Instant.now();
    synchronized (stateLock) {
      outage = new Outage(cause, since);
    }
    LOG.error("the log in {} cannot be written ({}); refusing new writes and writing the failed batch of {} records"
        + " again until it lands", dir, String.valueOf(cause), batch.count(), cause);
    refuseQueued();
    Duration pause = FIRST_RETRY_PAUSE;
    for (int attempt = 3; ; attempt++) {
      synchronized (stateLock) {
        try {
          if (!closed) {
            stateLock.wait(pause.toMillis()); // the retry's pace; close() ends it at once
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        if (closed || Thread.currentThread().isInterrupted()) {
          outage = null;
          return null;
        }
      }
      try {
        SegmentedLog.Written w = log.writeOnNewSegment(batch);
        synchronized (stateLock) {
          outage = null;
        }
        LOG.warn("the log in {} takes writes again: the failed batch landed at its attempt {}, {} ms after the"
            + " first failure", dir, attempt, Duration.between(since, Instant.now()).toMillis());
        return w;
      } catch (SegmentIdRefusedException e) {
        synchronized (stateLock) {
          outage = null; // refused as not above the newest segment: fatal
        }
        return null;
      } catch (IOException e) {
        if (interrupted(e)) {
          synchronized (stateLock) {
            outage = null; // the writer is being stopped
          }
          return null;
        }
        LOG.warn("writing the failed batch of the log in {} again failed (attempt {}): {}", dir, attempt,
            String.valueOf(e));
        cause = e;
        synchronized (stateLock) {
          outage = new Outage(e, since);
        }
        refuseQueued();
      }
      pause = pause.multipliedBy(2).compareTo(MAX_RETRY_PAUSE) > 0 ? MAX_RETRY_PAUSE : pause.multipliedBy(2);
    }
  }

  /**
   * Whether {@code e} says the writer thread was interrupted. Not its subclasses: a socket or
   * connect timeout of HDFS ({@code SocketTimeoutException}, Hadoop's {@code ConnectTimeoutException})
   * is an {@link InterruptedIOException} too, and means only "not now".
   */
  private static boolean interrupted(IOException e) {
    return e.getClass() == InterruptedIOException.class || Thread.currentThread().isInterrupted();
  }

  /** Refuses every request waiting in the queue (none of them is in the log). */
  private void refuseQueued() {
    Outage o = outage;
    failQueued(() -> refused(o));
  }

  /** Fails every request waiting in the queue; a close stays queued. */
  private void failQueued(Supplier<LogUnavailableException> error) {
    List<Request> left = new ArrayList<>();
    queue.drainTo(left);
    for (Request r : left) {
      if (r == CLOSE || r == ROLL) {
        queue.add(r);
      } else {
        r.done.completeExceptionally(error.get());
      }
    }
  }

  private LogUnavailableException refused(Outage o) {
    return new LogUnavailableException("the log in " + dir + " cannot be written since " + o.since()
        + " (" + o.cause() + "); this write was not taken, try again", o.cause());
  }

  /** The acknowledger's loop: durable batches, in log order, to the listener, then to the callers. */
  private void acknowledge() {
    while (true) {
      Durable d;
      try {
        d = durable.take();
      } catch (InterruptedException e) {
        // Batches handed over are durable and their callers wait: keep acknowledging them, but
        // take no new writes.
        LOG.error("log acknowledger interrupted; stopping writes");
        stopWrites(e);
        continue;
      }
      if (d == ACKER_STOP) {
        return;
      }
      acknowledge(d);
      // After the batch is done: the writer may acknowledge the next one itself only then.
      handedOver.decrementAndGet();
    }
  }

  /** Hands a durable batch to the listener, then completes its callers. */
  private void acknowledge(Durable d) {
    if (applyFailed) {
      // Behind a batch that could not be applied: applying this one would carry the indexes'
      // position (and the next checkpoint) past records they lack.
      d.batch().forEach(r -> r.done.completeExceptionally(outcomeUnknown()));
      return;
    }
    try {
      listener.onDurable(d.records(), d.end());
    } catch (Throwable e) {
      // Durable but not (wholly) applied: the indexes lack what the log holds (a transaction's
      // COMMIT in the log, its versions not installed). Only a replay makes them agree again. The
      // log stops before the callers hear: one of them taking the outcome back in memory must find
      // no log to write a contradicting record to (an ABORT behind that COMMIT). The server exits
      // and its tablets are recovered from the log.
      LOG.error("applying a durable batch failed", e);
      applyFailed = true;
      stopWrites(e);
      d.batch().forEach(r -> r.done.completeExceptionally(outcomeUnknown()));
      return;
    }
    int i = 0;
    for (Request r : d.batch()) {
      r.done.complete(d.records().subList(i, i + r.frames.length));
      i += r.frames.length;
    }
  }

  private void stopWrites(Throwable cause) {
    boolean byClose;
    synchronized (stateLock) {
      if (failure == null) {
        failure = cause;
      }
      byClose = closed;
    }
    LOG.error("the log stopped accepting writes: {}", String.valueOf(cause), cause);
    failQueued(this::unavailable);
    if (!byClose) {
      stoppedForGood.complete(failure);
    }
  }

  /** For the callers of a batch that was being written when the log stopped: it may be in the log or not. */
  private LogUnavailableException outcomeUnknown() {
    return new LogUnavailableException("the log in " + dir + " stopped accepting writes while this write was being"
        + " written: its outcome is unknown (it is applied if a later replay finds it in the log): " + failure, failure);
  }

  private LogUnavailableException unavailable() {
    return new LogUnavailableException("the log in " + dir + " stopped accepting writes: " + failure, failure);
  }
}
