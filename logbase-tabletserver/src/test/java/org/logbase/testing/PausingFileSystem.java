package org.logbase.testing;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code pausing://}, where a test can hold the next opening
 * of a file for reading until it lets go: a way to stop a reader (a recovery replay, say) at a known
 * point while the test does something else. Hadoop instantiates it by scheme ({@link #configure}),
 * so the pause is armed through a static slot.
 */
public final class PausingFileSystem extends RawLocalFileSystem {
  public static final String SCHEME = "pausing";
  private static final AtomicReference<Pause> NEXT = new AtomicReference<>();

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

  /** Holds the next opening, for reading, of a file whose path contains {@code pathPart}. */
  public static Pause pauseNextOpen(String pathPart) {
    Pause p = new Pause(pathPart);
    if (!NEXT.compareAndSet(null, p)) {
      throw new IllegalStateException("a pause is armed already");
    }
    return p;
  }

  /** A Hadoop configuration that maps {@code pausing://} to this class. */
  public static Configuration configure(Configuration conf) {
    conf.set("fs." + SCHEME + ".impl", PausingFileSystem.class.getName());
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    return conf;
  }

  /** The URI of a local directory under this scheme. */
  public static URI uri(java.nio.file.Path dir) {
    return URI.create(SCHEME + "://" + dir.toAbsolutePath());
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    Pause p = NEXT.get();
    if (p != null && f.toString().contains(p.pathPart) && NEXT.compareAndSet(p, null)) {
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
