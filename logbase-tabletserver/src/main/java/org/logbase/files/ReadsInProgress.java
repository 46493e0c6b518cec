package org.logbase.files;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The long reads in progress on this server: scans, each of which reads all its batches at one
 * snapshot and from the files its tablet named when it began, however long its client takes. Two
 * things wait for them. A compaction's GC horizon stops at the oldest snapshot in use. A file that
 * stops being needed (a sorted segment a compaction replaced, a log segment no checkpoint needs) is
 * deleted only once every read that began before is over: the deleter takes a {@link #mark} after
 * it has found the file unneeded and deletes it once {@link #anyBegunBefore} that mark is false.
 *
 * <p>A read begun after the mark cannot use the file: it reads the tablet as it is when it begins,
 * and the tablet stopped naming the file before the file was found unneeded. Short reads (gets, a
 * scan within one call) need no entry: they end well within the delay before a file goes (a
 * checkpoint for a sorted segment, two garbage-collection rounds for a log segment).
 *
 * <p>Thread-safe; a read is ended once, by whoever ends it ({@link Read#close} is idempotent).
 */
public final class ReadsInProgress {
  /** One read in progress until {@link #close}. */
  public final class Read implements AutoCloseable {
    private final long snapshot;
    private final long began;

    private Read(long snapshot, long began) {
      this.snapshot = snapshot;
      this.began = began;
    }

    /** Ends the read; idempotent. */
    @Override
    public void close() {
      open.remove(this);
    }
  }

  private final Set<Read> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong marks = new AtomicLong();

  /** A read that begins now at {@code snapshot}; begin it before reading the tablet it reads. */
  public Read begin(long snapshot) {
    Read r = new Read(snapshot, marks.get());
    open.add(r);
    return r;
  }

  /** The oldest snapshot in use, or 0 if none. */
  public long oldestSnapshot() {
    return open.stream().mapToLong(r -> r.snapshot).min().orElse(0);
  }

  /**
   * A mark for files found unneeded before this call: the reads in progress now may still use them,
   * the reads begun later cannot.
   */
  public long mark() {
    return marks.incrementAndGet();
  }

  /** Whether a read that began before {@code mark} is still in progress. */
  public boolean anyBegunBefore(long mark) {
    for (Read r : open) {
      if (r.began < mark) {
        return true;
      }
    }
    return false;
  }

  /** How many reads are in progress. */
  public int size() {
    return open.size();
  }

  /**
   * The older of two "oldest snapshot" answers where 0 means none: the snapshot compaction must not
   * pass.
   */
  public static long older(long a, long b) {
    return a == 0 ? b : b == 0 ? a : Math.min(a, b);
  }
}
