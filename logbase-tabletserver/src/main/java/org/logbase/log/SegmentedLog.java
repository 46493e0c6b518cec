package org.logbase.log;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Failures;
import org.logbase.common.Threads;
import org.logbase.files.FileIds;
import org.logbase.files.WrittenFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sequence of segment files of one log, written by one thread: it numbers records (LSNs),
 * writes a batch of frames to the current segment and flushes once, rolls to a new segment when the
 * current one is full, and writes a batch whose write or flush failed once more, whole, on a new
 * segment (same LSNs: replay skips the duplicates). Every incarnation starts a new segment with its
 * first batch, not before: segments of an earlier one are never appended to, and a server creates
 * no segment before it has registered, which sealing a dead server's log relies on
 * ({@link org.logbase.recovery.LogRecovery#seal}).
 */
final class SegmentedLog implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentedLog.class);
  private static final long BLOCK_ROUNDING = 1L << 20;

  /** What a batch became: its records with their LSNs and places, and the position after it. */
  record Written(List<AppendedRecord> records, LogPosition end) {}

  /**
   * A batch with its LSNs given (sealed into its frames): however often it is written, it is
   * written with these, so replay keeps one copy of each record.
   */
  record Batch(List<List<LogRecord>> records, List<byte[][]> frames, long firstLsn, int count, boolean sync) {}

  private final FileSystem fs;
  private final Path dir;
  private final LogConfig config;
  private final ExecutorService closer = Executors.newSingleThreadExecutor(Threads.daemon("log-segment-closer"));
  private final FileIds ids;
  private final WrittenFiles files;
  private long nextLsn;
  private long lastSegment;
  private SegmentFile current;
  /** Whether a write to {@link #current} failed: it is abandoned, not closed, at the end. */
  private boolean currentFailed;

  // Statistics, written by the writing thread only.
  private volatile long bytes;
  private volatile long syncs;
  private volatile long rolls;
  private volatile long retries;

  /**
   * @param lastSegment the id of the log's newest segment (0: none): new ones must be above it
   * @param ids segment ids: above every segment of this log already written, increasing
   * @param files told of each segment created before a record goes into it, and closes each
   */
  SegmentedLog(FileSystem fs, Path dir, LogConfig config, long firstLsn, long lastSegment, FileIds ids,
      WrittenFiles files) {
    this.lastSegment = lastSegment;
    this.fs = fs;
    this.dir = dir;
    this.config = config;
    this.nextLsn = firstLsn;
    this.ids = ids;
    this.files = files;
  }

  /**
   * Gives a batch (each element: one caller's records and their encoded frames) its LSNs. They are
   * used up whether or not the batch is ever written.
   */
  Batch seal(List<List<LogRecord>> records, List<byte[][]> frames, boolean sync) {
    int count = 0;
    for (byte[][] fs : frames) {
      for (byte[] f : fs) {
        RecordCodec.seal(f, nextLsn + count);
        count++;
      }
    }
    long firstLsn = nextLsn;
    nextLsn += count;
    return new Batch(records, frames, firstLsn, count, sync);
  }

  /**
   * Writes a batch and flushes once; on failure writes it again on a new segment.
   *
   * @throws IOException if the retry failed too; the batch may be in the log or not, and may be
   *     written again only by {@link #writeOnNewSegment}
   */
  Written write(Batch b) throws IOException {
    try {
      if (current == null) {
        current = createNext(); // the first batch (or the first after a roll that failed)
      }
      return rollIfFull(writeAndFlush(b));
    } catch (IOException first) {
      LOG.warn("writing {} records to segment {} failed; retrying them on a new segment", b.count(), segmentNumber(),
          first);
      try {
        return writeOnNewSegment(b);
      } catch (IOException second) {
        Failures.suppress(second, first);
        throw second;
      }
    }
  }

  /**
   * Writes a batch whose write failed, whole, on a new segment; the segment written to before is
   * abandoned (nothing more goes into it).
   */
  Written writeOnNewSegment(Batch b) throws IOException {
    retries++;
    if (current != null) {
      SegmentFile failed = current;
      current = null;
      files.close(failed.number(), failed::abandon);
    }
    current = createNext();
    try {
      return rollIfFull(writeAndFlush(b));
    } catch (IOException e) {
      currentFailed = true; // the next attempt abandons it, or the close does
      throw e;
    }
  }

  private Written rollIfFull(Written w) {
    if (w.end().offset() >= config.segmentBytes()) {
      roll();
    }
    return w;
  }

  private Written writeAndFlush(Batch b) throws IOException {
    List<AppendedRecord> all = new ArrayList<>(b.count());
    long lsn = b.firstLsn();
    long written = 0;
    for (int r = 0; r < b.frames().size(); r++) {
      byte[][] fs = b.frames().get(r);
      for (int j = 0; j < fs.length; j++) {
        long at = current.append(fs[j]);
        written += fs[j].length;
        all.add(new AppendedRecord(b.records().get(r).get(j).withLsn(lsn++), LogPointer.pointer(current.number(), at),
            fs[j].length));
      }
    }
    current.flush(b.sync());
    if (b.sync()) {
      syncs++;
    }
    bytes += written;
    return new Written(all, new LogPosition(current.number(), current.position()));
  }

  private void roll() {
    SegmentFile full = current;
    current = null;
    try {
      current = createNext();
      rolls++;
    } catch (IOException e) {
      // The next batch finds no open segment and opens one first.
      LOG.warn("opening segment {} failed; the next write will retry", lastSegment, e);
    }
    // Closing an HDFS file waits for the NameNode to see its last block (up to ~0.4 s); everything
    // in it is flushed and acknowledged already, so writers need not wait for that.
    closer.execute(() -> {
      try {
        files.close(full.number(), full);
      } catch (IOException e) {
        LOG.warn("closing full segment {} failed; its contents were flushed before", full.number(), e);
      }
    });
  }

  /** Goes on in a new segment if segment {@code number} is the one written to now, and closes it. */
  void rollAwayFrom(long number) {
    if (current != null && current.number() == number) {
      LOG.info("a read of log segment {} failed while it was written: writing on in a new segment and closing it",
          number);
      roll();
    }
  }

  private SegmentFile createNext() throws IOException {
    long number = ids.next();
    if (number <= lastSegment) {
      throw new SegmentIdRefusedException("file id " + number + " is not above the log's last segment " + lastSegment);
    }
    lastSegment = number;
    currentFailed = false;
    long blockSize = (config.segmentBytes() + config.maxBatchBytes() + BLOCK_ROUNDING - 1) / BLOCK_ROUNDING
        * BLOCK_ROUNDING;
    SegmentFile s = SegmentFile.create(fs, dir, number, blockSize);
    files.created(number, s.path());
    LOG.info("log segment {} opened: {}", number, s.path());
    return s;
  }

  /** The segment written to now (or the last one tried). */
  long segmentNumber() {
    return current != null ? current.number() : lastSegment;
  }

  long bytes() {
    return bytes;
  }

  long syncs() {
    return syncs;
  }

  long rolls() {
    return rolls;
  }

  long retries() {
    return retries;
  }

  /** Waits for full segments to close, then closes the current one. */
  @Override
  public void close() throws IOException {
    closer.shutdown();
    try {
      closer.awaitTermination(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while closing segments", e);
    }
    if (current != null) {
      // A segment whose write failed (a close during the retries of a batch) cannot be closed:
      // its pipeline is broken. It is abandoned, as each failed attempt's segment was.
      SegmentFile last = current;
      files.close(last.number(), currentFailed ? last::abandon : last);
    }
  }
}
