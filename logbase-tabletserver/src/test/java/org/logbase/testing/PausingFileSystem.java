package org.logbase.testing;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A file system (wrapping the engine's, through {@code EngineOptions#withFileSystem}) where a test can
 * hold the next opening of a file for reading until it lets go: a way to stop a reader (a recovery
 * replay, say) at a known point while the test does something else.
 */
public final class PausingFileSystem extends FilterFileSystem {
  private final AtomicReference<Pause> next = new AtomicReference<>();

  /** A pause of one file opening: the test waits until it is reached, then releases it. */
  public static final class Pause {
    private final String pathPart;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private Pause(String pathPart) {
      this.pathPart = pathPart;
    }

    /** Waits until a reader is held at the pause. */
    public void awaitReached() throws InterruptedException {
      if (!reached.await(60, TimeUnit.SECONDS)) {
        throw new AssertionError("nobody opened a file under '" + pathPart + "' within 60 s");
      }
    }

    /** Lets the held reader go on. */
    public void release() {
      released.countDown();
    }
  }

  public PausingFileSystem(FileSystem inner) {
    super(inner);
  }

  /** Holds the next opening, for reading, of a file whose path contains {@code pathPart}. */
  public Pause pauseNextOpen(String pathPart) {
    Pause p = new Pause(pathPart);
    if (!next.compareAndSet(null, p)) {
      throw new IllegalStateException("a pause is armed already");
    }
    return p;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    Pause p = next.get();
    if (p != null && f.toString().contains(p.pathPart) && next.compareAndSet(p, null)) {
      p.reached.countDown();
      try {
        if (!p.released.await(60, TimeUnit.SECONDS)) {
          throw new IOException("the test did not release the pause within 60 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while paused", e);
      }
    }
    return super.open(f, bufferSize);
  }
}
