package org.logbase.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/** A file system whose next N flushes (hflush or hsync) or creates fail, to exercise the log's failure path. */
public final class FlakyFileSystem extends FilterFileSystem {
  private final AtomicInteger failingFlushes = new AtomicInteger();
  private final AtomicInteger failingCreates = new AtomicInteger();
  private final AtomicReference<RuntimeException> nextCreateThrows = new AtomicReference<>();

  public FlakyFileSystem(FileSystem inner) {
    super(inner);
  }

  private volatile boolean spareFirstFlushes;

  /** The next {@code n} flushes on any stream this file system created throw. */
  public void failNextFlushes(int n) {
    spareFirstFlushes = false;
    failingFlushes.set(n);
  }

  /**
   * The next {@code n} flushes throw, but not a stream's first (a log segment's header lands, its
   * first batch fails: a DataNode lost between the two).
   */
  public void failNextFlushesButFirstOnes(int n) {
    spareFirstFlushes = true;
    failingFlushes.set(n);
  }

  private volatile Supplier<IOException> createFailure = () -> new IOException("injected create failure");

  /** The next {@code n} file creations throw. */
  public void failNextCreates(int n) {
    failNextCreates(n, () -> new IOException("injected create failure"));
  }

  /** The next {@code n} file creations throw what {@code failure} makes. */
  public void failNextCreates(int n, Supplier<IOException> failure) {
    createFailure = failure;
    failingCreates.set(n);
  }

  /** How many of the creations asked to fail have not been tried yet. */
  public int createsLeftToFail() {
    return failingCreates.get();
  }

  /** The next file creation throws {@code e} (not an I/O error: a bug, say). */
  public void throwOnNextCreate(RuntimeException e) {
    nextCreateThrows.set(e);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    RuntimeException bug = nextCreateThrows.getAndSet(null);
    if (bug != null) {
      throw bug;
    }
    if (failingCreates.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
      throw createFailure.get();
    }
    FSDataOutputStream inner = fs.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    return new FSDataOutputStream(new Flaky(inner), null);
  }

  /**
   * A stream whose flush failed throws that same exception from every later call, its close
   * included, as an HDFS stream with a broken pipeline does.
   */
  private final class Flaky extends OutputStream implements Syncable {
    private final FSDataOutputStream inner;
    private IOException failed;
    private boolean flushedBefore;

    Flaky(FSDataOutputStream inner) {
      this.inner = inner;
    }

    @Override
    public void write(int b) throws IOException {
      checkNotFailed();
      inner.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      checkNotFailed();
      inner.write(b, off, len);
    }

    /** As HDFS's stream: once failed, every call throws that same exception object again. */
    private void checkNotFailed() throws IOException {
      if (failed != null) {
        throw failed;
      }
    }

    @Override
    public void hflush() throws IOException {
      maybeFail();
      inner.hflush();
    }

    @Override
    public void hsync() throws IOException {
      maybeFail();
      inner.hsync();
    }

    @Override
    public void flush() throws IOException {
      inner.flush();
    }

    @Override
    public void close() throws IOException {
      inner.close();
      checkNotFailed();
    }

    private void maybeFail() throws IOException {
      checkNotFailed();
      boolean first = !flushedBefore;
      flushedBefore = true;
      if (first && spareFirstFlushes) {
        return;
      }
      if (failingFlushes.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
        failed = new IOException("injected flush failure");
        throw failed;
      }
    }
  }
}
