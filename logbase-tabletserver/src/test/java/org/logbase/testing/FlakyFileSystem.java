package org.logbase.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/** A file system whose next N flushes (hflush or hsync) fail, to exercise the log's failure path. */
public final class FlakyFileSystem extends FilterFileSystem {
  private final AtomicInteger failingFlushes = new AtomicInteger();
  private final AtomicInteger failingCreates = new AtomicInteger();

  public FlakyFileSystem(FileSystem inner) {
    super(inner);
  }

  /** The next {@code n} flushes on any stream this file system created throw. */
  public void failNextFlushes(int n) {
    failingFlushes.set(n);
  }

  /** The next {@code n} file creations throw. */
  public void failNextCreates(int n) {
    failingCreates.set(n);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    if (failingCreates.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
      throw new IOException("injected create failure for " + f);
    }
    FSDataOutputStream inner = fs.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    return new FSDataOutputStream(new Flaky(inner), null);
  }

  private final class Flaky extends OutputStream implements Syncable {
    private final FSDataOutputStream inner;

    Flaky(FSDataOutputStream inner) {
      this.inner = inner;
    }

    @Override
    public void write(int b) throws IOException {
      inner.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      inner.write(b, off, len);
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
    }

    private void maybeFail() throws IOException {
      if (failingFlushes.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
        throw new IOException("injected flush failure");
      }
    }
  }
}
