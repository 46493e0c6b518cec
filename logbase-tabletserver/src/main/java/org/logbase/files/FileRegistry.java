package org.logbase.files;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.logbase.common.Config;
import org.logbase.common.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every known data file lives, and positioned reads from it by id. Open input streams are
 * kept for the most used files, at most {@value #MAX_OPEN_DEFAULT} by default ({@link #MAX_OPEN}):
 * a stream evicted while a read is under way is closed when that read ends.
 *
 * <p>Positioned reads on one stream are safe from many threads at once (HDFS pread,
 * RawLocalFileSystem's channel reads).
 *
 * <p>The files this server writes ({@link WrittenFiles}) are closed while no read of them is under
 * way, and reads that come meanwhile wait for the close. An HDFS DataNode before 3.5 drops its
 * replica of a block when a read opens it just as the writer's close moves it from the replicas
 * being written to the finalized ones (HDFS-17342): it takes the moved file for a lost one. With one
 * replica the block is then missing, every read of the file fails, until the DataNode's directory
 * scan finds the file again, hours later. Seen once in CompactionModelTest on a MiniDFSCluster: a
 * read of a log segment closed as it filled.
 */
public final class FileRegistry implements Closeable, WrittenFiles, ReadGuard {
  private static final Logger LOG = LoggerFactory.getLogger(FileRegistry.class);
  public static final String MAX_OPEN = "files.max.open";
  static final int MAX_OPEN_DEFAULT = 512;

  private final FileSystem fs;
  private final ConcurrentHashMap<Long, Path> paths = new ConcurrentHashMap<>();
  /** The files this server writes and has not closed: reads share the lock, the close holds it alone. */
  private final ConcurrentHashMap<Long, ReadWriteLock> beingWritten = new ConcurrentHashMap<>();
  private volatile LongConsumer unreadableWhileWritten = id -> {};
  private final Cache<Long, Handle> open;

  public FileRegistry(FileSystem fs, Config config) {
    this(fs, config.getInt(MAX_OPEN, MAX_OPEN_DEFAULT));
  }

  public FileRegistry(FileSystem fs, int maxOpen) {
    if (maxOpen < 1) {
      throw new IllegalArgumentException(MAX_OPEN + " must be at least 1, not " + maxOpen);
    }
    this.fs = fs;
    this.open = Caffeine.newBuilder().maximumSize(maxOpen).executor(Runnable::run)
        .<Long, Handle>removalListener((id, h, cause) -> {
          if (h != null && cause != RemovalCause.REPLACED) {
            h.retire();
          }
        }).build();
  }

  /**
   * Makes a file known by id. Registering an id again with the same path does nothing; with another
   * path it fails, as ids are never reused.
   */
  public void register(long id, Path path) {
    Path p = fs.makeQualified(path);
    Path before = paths.putIfAbsent(id, p);
    if (before != null && !before.equals(p)) {
      throw new IllegalStateException("file id " + id + " is " + before + ", not " + p);
    }
  }

  /** Registers a file this server has just created and writes; see {@link #close(long, Closeable)}. */
  @Override
  public void created(long id, Path path) {
    register(id, path);
    beingWritten.put(id, new ReentrantReadWriteLock());
  }

  /**
   * Closes a file registered by {@link #created} once the reads of it under way have ended; reads
   * that come meanwhile wait until it is closed.
   */
  @Override
  public void close(long id, Closeable file) throws IOException {
    ReadWriteLock gate = beingWritten.get(id);
    if (gate == null) {
      file.close(); // forgotten meanwhile (deleted as unneeded): nothing reads it any more
      return;
    }
    gate.writeLock().lock();
    try {
      file.close();
    } finally {
      beingWritten.remove(id);
      gate.writeLock().unlock();
    }
  }

  @Override
  public void whenUnreadable(LongConsumer stopWriting) {
    this.unreadableWhileWritten = stopWriting;
  }

  /** Where a file lives. */
  public Path path(long id) throws FileNotFoundException {
    Path p = paths.get(id);
    if (p == null) {
      throw new FileNotFoundException("data file " + id + " is not known to this server");
    }
    return p;
  }

  public boolean knows(long id) {
    return paths.containsKey(id);
  }

  /** Reads {@code buf.length} bytes of file {@code id} from {@code offset}. */
  public void readFully(long id, long offset, byte[] buf) throws IOException {
    try {
      readOnce(id, offset, buf);
    } catch (IOException e) {
      // A stream opened while the file was shorter may not see bytes flushed since (EOF); and an
      // HDFS stream of a file still being written that fails one read refetches the file's blocks
      // from the NameNode, which knows no length for the last one yet, and then refuses every
      // offset ("offset >= getFileLength()", seen once in CompactionModelTest on MiniDFSCluster).
      // A stream opened anew asks the DataNode for that length: reopen once.
      open.invalidate(id);
      try {
        readOnce(id, offset, buf);
      } catch (IOException again) {
        Failures.suppress(again, e);
        LOG.warn("reading {} bytes at offset {} of data file {} failed, on a stream opened anew too; {}",
            buf.length, offset, id, describe(id));
        if (beingWritten.containsKey(id)) {
          // Its writer holds it open and notices nothing until its next flush: it moves on to a
          // new file and closes this one, after which a read recovers its lease if need be.
          unreadableWhileWritten.accept(id);
        }
        throw again;
      }
    }
  }

  /** What the file system says of a file a read failed on, for the log: its length and state. */
  private String describe(long id) {
    try {
      Path p = path(id);
      FileStatus status = fs.getFileStatus(p);
      String state = fs instanceof DistributedFileSystem dfs
          ? (dfs.isFileClosed(p) ? ", closed" : ", still open for writing") : "";
      return p + " is " + status.getLen() + " bytes long" + state;
    } catch (IOException e) {
      return "the file system cannot say more of it: " + e;
    }
  }

  private void readOnce(long id, long offset, byte[] buf) throws IOException {
    try (Hold reading = reading(id)) {
      Handle h = acquire(id);
      try {
        h.in.readFully(offset, buf);
      } finally {
        h.release();
      }
    }
  }

  /**
   * Holds off the close of file {@code id} while a read of it through a stream of the caller's own
   * is under way, if this server writes it; a close under way is waited for first.
   */
  @Override
  public Hold reading(long id) {
    ReadWriteLock gate = beingWritten.get(id);
    if (gate == null) {
      return NOT_WRITTEN;
    }
    Lock read = gate.readLock();
    read.lock();
    return read::unlock;
  }

  private static final Hold NOT_WRITTEN = () -> {};

  private Handle acquire(long id) throws IOException {
    while (true) {
      Handle h = open.getIfPresent(id);
      if (h == null) {
        // A file this server still writes is never taken from its writer: a read that cannot open
        // it fails (the writer's next flush fails over to a new segment and closes this one). One
        // it gave up (its close failed) or another server's is opened by recovering its lease.
        Path p = path(id);
        Handle fresh = new Handle(beingWritten.containsKey(id) ? fs.open(p) : Leases.open(fs, p));
        h = open.asMap().putIfAbsent(id, fresh);
        if (h == null) {
          h = fresh;
        } else {
          fresh.retire();
        }
      }
      if (h.tryAcquire()) {
        return h;
      }
      open.asMap().remove(id, h); // evicted and closed meanwhile: open it again
    }
  }

  /** Closes the stream of a file that is going away, and forgets where it was. */
  public void forget(long id) {
    beingWritten.remove(id);
    open.invalidate(id);
    paths.remove(id);
  }

  /** How many streams are open now (at most the configured bound, once evictions have run). */
  public long openStreams() {
    open.cleanUp();
    return open.estimatedSize();
  }

  @Override
  public void close() {
    open.invalidateAll();
    open.cleanUp();
  }

  /** An open stream and how many reads use it; closed once retired and unused. */
  private static final class Handle {
    private final FSDataInputStream in;
    private int users;
    private boolean retired;
    private boolean closed;

    Handle(FSDataInputStream in) {
      this.in = in;
    }

    synchronized boolean tryAcquire() {
      if (retired) {
        return false;
      }
      users++;
      return true;
    }

    synchronized void release() {
      users--;
      closeIfUnused();
    }

    synchronized void retire() {
      retired = true;
      closeIfUnused();
    }

    private void closeIfUnused() {
      if (retired && users == 0 && !closed) {
        closed = true;
        try {
          in.close();
        } catch (IOException e) {
          // Nothing was written through it; a failed close of an input stream loses nothing.
        }
      }
    }
  }
}
