package org.logbase.sorted;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.logbase.common.Loan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data blocks of one scan. A block in the block cache is taken from there, but a scan adds no
 * block to the cache: a scan reads each block once, and would push out the blocks gets read again
 * (HBase's {@code cacheBlocks=false}). Of the rest, the first {@link #POSITIONED_BLOCKS} are read
 * with positioned reads of the reader's shared stream, as a get reads them, so a short scan opens
 * nothing; after that the scan takes a stream of its own ({@link ScanStreams}) and reads the
 * blocks through it in file order: one sequential read, which HDFS serves from one connection to
 * the DataNode instead of a new request per positioned read. Each block is checked as every block
 * read is ({@link SegmentReaderV1#check}). {@link #close} gives the stream back; a read after it
 * takes one again.
 *
 * <p><b>Checksums.</b> The stream may skip the file system's checksums ({@link ScanFileSystem}):
 * a block read through it that fails its own check is read again with a positioned read of the
 * reader's shared stream, which verifies them, and only that read's failure reaches the scan. A
 * stream that read a block that failed its check is closed at the end, not kept for other scans.
 *
 * <p><b>Read-ahead</b> (off unless configured). Once it reads through its stream, the scan asks
 * {@link ReadAhead} for a thread that reads the next blocks, up to the last one its range can
 * reach, at most {@link ReadAhead#depth} ahead of the scan; the scan checks each as it takes it.
 * While that {@link Prefetch} runs it alone uses the stream; the scan takes blocks from it in
 * order. A request for any other block (a seek), or {@link #close}, stops it first: it ends after
 * the block it is reading (a read HDFS's socket timeout bounds), and what it read ahead is dropped.
 * A block that fails its check, or a failed read, reaches the scan when it asks for that block,
 * never earlier, so a scan that stops before a damaged block does not fail; the read-ahead is
 * stopped there, and the scan's next request reads anew. A scan holds at most {@link
 * ReadAhead#depth} blocks read ahead, plus the one being read.
 * When the scan takes none of them for the read-ahead's idle time (its client is slow), the
 * read-ahead ends and frees its thread, keeping what it read; once the scan has taken those it
 * reads the next block itself and asks for a thread again, as at its first stream read.
 *
 * <p><b>Arrays.</b> Blocks read through the stream are read into arrays that are reused ({@link
 * BlockArrays}, the server's): the iterator gives a block back ({@link #done}) when it moves past
 * it. A scan whose entries hold copies of their values gives its array back then; a row scan,
 * whose entries' values are views of the block ({@link BlockLoans}), lends each block it read
 * through the stream under a {@link Loan} of its own and leaves it with its loans when the
 * iterator moves past it, to be given back at their release. Blocks from the cache or positioned
 * reads are never reused (views of them never end). A compressed block is decompressed into
 * another of the arrays, and the one it was read into goes back at once. A block read ahead but
 * dropped (a seek) is left to the collector.
 * Compactions scan without read-ahead ({@link SortedSegmentReader#scan(byte[], byte[], boolean)}).
 */
final class ScanBlocks implements BlockSource {
  /** Blocks a scan reads with positioned reads before it opens a stream. */
  static final int POSITIONED_BLOCKS = 2;
  private static final Logger LOG = LoggerFactory.getLogger(ScanBlocks.class);

  private final SegmentReaderV1 reader;
  private final ReadAhead readAhead;
  /** Blocks at or after this one hold nothing the scan's range reaches. */
  private final int limit;
  /** The arrays blocks read through the stream are read into, reused once nothing the scan returned points into them. */
  private final BlockArrays arrays;
  /** Null: the scan's entries hold copies of their values, and a block's array is reused when the iterator moves past it. */
  private final BlockLoans loans;
  private int positioned;
  private FSDataInputStream stream;
  private Prefetch prefetch;
  /** The last block read through the stream that the scan took: its array comes back at {@link #done}. */
  private DataBlock lent;
  /**
   * A block read through the stream failed its check: the stream is closed at the end instead of
   * kept for the next scans, which would read from the same replica.
   */
  private boolean streamFailedACheck;

  /**
   * @param limit blocks at or after this one are not read ahead (the range ends before them)
   * @param readAhead the threads this scan may read ahead with ({@link ReadAhead#none()}: none)
   * @param loans where the blocks its entries view wait for their release; null when its entries
   *     hold copies
   */
  ScanBlocks(SegmentReaderV1 reader, int limit, ReadAhead readAhead, BlockLoans loans) {
    this.reader = reader;
    this.limit = limit;
    this.readAhead = readAhead;
    this.arrays = reader.arrays();
    this.loans = loans;
  }

  @Override
  public DataBlock block(int i) throws IOException {
    if (prefetch != null) {
      if (i == prefetch.next && i < limit) {
        DataBlock b;
        try {
          byte[] stored = prefetch.take();
          b = stored == null ? null : checked(i, stored);
        } catch (IOException | RuntimeException | Error e) {
          stopPrefetch(); // what it read after the failure is dropped: the next block is read anew
          throw e;
        }
        if (b != null) {
          return lend(b);
        }
        // It let go of its thread while this scan took nothing: read on here, and ask for a thread again.
      }
      stopPrefetch();
    }
    DataBlock cached = reader.cached(i);
    if (cached != null) {
      return cached;
    }
    if (positioned < POSITIONED_BLOCKS) {
      positioned++;
      return reader.read(i);
    }
    if (stream == null) {
      stream = reader.streams().take();
    }
    DataBlock b = readFromStream(stream, i);
    startPrefetch(i + 1);
    return lend(b);
  }

  /** A block read through the stream, handed to the iterator: its array comes back at {@link #done}. */
  private DataBlock lend(DataBlock b) {
    lent = loans == null ? b : b.lentUnder(new Loan());
    return lent;
  }

  @Override
  public void done(DataBlock block) {
    if (block == lent) {
      lent = null;
      if (loans == null) {
        arrays.give(block.array());
      } else {
        loans.hold(arrays, block);
      }
    }
  }

  /** Block {@code i} read into an array of {@link #arrays} and checked. */
  private DataBlock readFromStream(FSDataInputStream in, int i) throws IOException {
    return checked(i, readStored(in, i));
  }

  /** Block {@code i}'s stored bytes, unchecked, read into an array of {@link #arrays}. */
  private byte[] readStored(FSDataInputStream in, int i) throws IOException {
    BlockInfo info = reader.index().get(i);
    byte[] buf = arrays.take(info.storedLength());
    try {
      return reader.file().read(in, info.offset(), info.storedLength(), SegmentReaderV1.name(i, info), buf);
    } catch (IOException | RuntimeException | Error e) {
      arrays.give(buf);
      throw e;
    }
  }

  /**
   * Block {@code i} from its stored bytes, read through the stream, checked ({@code stored} given
   * back if the block was decompressed, into another array of {@link #arrays}, or if the check fails). A block that fails its check when the stream
   * skipped the file system's checksums is read again with a positioned read, which verifies them
   * and passes over a replica that fails them ({@link ScanFileSystem}).
   */
  private DataBlock checked(int i, byte[] stored) throws IOException {
    DataBlock b;
    try {
      b = reader.check(i, stored, arrays::take);
    } catch (SegmentDamageException e) {
      arrays.give(stored);
      streamFailedACheck = true;
      if (reader.file().streamsVerify()) {
        throw e;
      }
      return readVerified(i, e);
    } catch (IOException | RuntimeException | Error e) {
      arrays.give(stored);
      throw e;
    }
    if (b.array() != stored) {
      arrays.give(stored);
    }
    return b;
  }

  private DataBlock readVerified(int i, SegmentDamageException unverified) throws IOException {
    DataBlock b;
    try {
      b = reader.read(i);
    } catch (IOException | RuntimeException e) {
      e.addSuppressed(unverified);
      throw e;
    }
    LOG.warn("{} failed its check when a scan read it without the file system's checksums, and passed when read"
        + " again with them: a replica may be damaged (HDFS reports one when a verifying read or its block scanner"
        + " meets it): {}", SegmentReaderV1.name(i, reader.index().get(i)), unverified.getMessage());
    return b;
  }

  private void startPrefetch(int from) {
    int depth = readAhead.depth();
    if (depth == 0 || from >= limit) {
      return;
    }
    Prefetch p = new Prefetch(stream, from, depth);
    if (readAhead.start(p)) {
      prefetch = p;
    }
  }

  private void stopPrefetch() {
    Prefetch p = prefetch;
    prefetch = null;
    if (p != null) {
      p.stop();
    }
  }

  @Override
  public void close() throws IOException {
    stopPrefetch();
    FSDataInputStream s = stream;
    stream = null;
    if (s != null && streamFailedACheck) {
      s.close();
    } else if (s != null) {
      reader.streams().give(s);
    }
  }

  /**
   * Reads blocks {@code [next, limit)} in order through the scan's stream on a read-ahead thread,
   * unchecked, holding at most {@code depth} that the scan has not taken. Items are a block's stored
   * bytes or the exception reading it raised (after which it reads no more).
   */
  private final class Prefetch implements ReadAhead.Task {
    private final FSDataInputStream in;
    private final int depth;
    private final ArrayDeque<Object> ready = new ArrayDeque<>();
    /** The block {@link #take} returns next (the scan's side). */
    private int next;
    /** The block {@link #run} reads next (its own side). */
    private int reading;
    private boolean stopped;
    private boolean ended;

    Prefetch(FSDataInputStream in, int from, int depth) {
      this.in = in;
      this.next = from;
      this.reading = from;
      this.depth = depth;
    }

    @Override
    public void run(Runnable release) {
      try {
        while (reading < limit && waitForRoom()) {
          Object item;
          try {
            item = readStored(in, reading);
          } catch (Throwable e) { // Errors too: the scan gets it as it is, not a missing block
            item = e;
          }
          if (!add(item) || !(item instanceof byte[])) {
            return;
          }
          reading++;
        }
      } catch (InterruptedException e) { // the server closes: the scan gets it, if it still waits
        add(new InterruptedIOException("read-ahead of " + reader.path() + " stopped: the reader closes"));
      } finally {
        release.run();
        synchronized (this) {
          ended = true;
          notifyAll();
        }
      }
    }

    /**
     * Waits until the scan takes a block, if it holds {@link #depth}; false if it was stopped, or
     * took nothing for the read-ahead's idle time (then this lets go of its thread).
     */
    private synchronized boolean waitForRoom() throws InterruptedException {
      long deadline = System.nanoTime() + readAhead.idleNanos();
      while (!stopped && ready.size() >= depth) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return !stopped;
    }

    /** False if the scan stopped this meanwhile. */
    private synchronized boolean add(Object item) {
      if (stopped) {
        return false;
      }
      ready.addLast(item);
      notifyAll();
      return true;
    }

    /**
     * Block {@link #next}'s stored bytes, unchecked, waiting for them; its read's failure if it
     * failed; null if this ended without reading it (it let go of its thread while the scan took
     * nothing), and the stream is the scan's again.
     */
    byte[] take() throws IOException {
      Object item;
      synchronized (this) {
        try {
          while (ready.isEmpty()) {
            if (ended) {
              return null;
            }
            wait();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for block " + next + " of " + reader.path());
        }
        item = ready.pollFirst();
        notifyAll();
      }
      next++;
      if (item instanceof IOException e) {
        throw e;
      }
      if (item instanceof RuntimeException e) {
        throw e;
      }
      if (item instanceof Error e) {
        throw e;
      }
      return (byte[]) item; // a read throws nothing else
    }

    /** Makes {@link #run} end after the block it reads and waits for that, so the stream is free again. */
    void stop() {
      boolean interrupted = false;
      synchronized (this) {
        stopped = true;
        ready.clear();
        notifyAll();
        while (!ended) {
          try {
            wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
