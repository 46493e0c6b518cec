package org.logbase.sorted;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.logbase.files.ForwardingInputStream;

/**
 * A file system (wrapping a real one) that counts what is done with the input streams of files whose
 * name ends with a suffix: streams opened and still open, positioned reads, bytes read sequentially
 * (through the stream's position), and streams that read sequentially and were neither unbuffered
 * nor closed since (on HDFS: that still hold a connection to a DataNode). It also counts overlaps:
 * a seek, sequential read or unbuffer of a stream that begins while another thread is inside one
 * of those on the same stream (a stream has one file pointer; its users must take turns); and it
 * can hold the sequential reads of threads whose name begins with a prefix until released. Lives
 * with the tests: the product counts nothing.
 */
public final class StreamCountingFileSystem extends FilterFileSystem {
  private final String suffix;
  private final List<Counted> streams = new ArrayList<>();
  private final CountDownLatch overlapped = new CountDownLatch(1);
  private int overlaps;
  private String holdPrefix;
  private CountDownLatch held;
  private CountDownLatch release;

  public StreamCountingFileSystem(FileSystem inner, String suffix) {
    super(inner);
    this.suffix = suffix;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    FSDataInputStream in = super.open(f, bufferSize);
    if (!f.getName().endsWith(suffix)) {
      return in;
    }
    Counted c = new Counted(in);
    synchronized (this) {
      streams.add(c);
    }
    return new FSDataInputStream(c);
  }

  /** Streams opened so far. */
  public synchronized int opened() {
    return streams.size();
  }

  /** Open streams that read sequentially and were not unbuffered since. */
  public synchronized int holding() {
    return (int) streams.stream().filter(c -> !c.closed && c.holding).count();
  }

  /** Streams open now. */
  public synchronized int open() {
    return (int) streams.stream().filter(c -> !c.closed).count();
  }

  public synchronized long positionedReads() {
    return streams.stream().mapToLong(c -> c.positionedReads).sum();
  }

  public synchronized long sequentialBytes() {
    return streams.stream().mapToLong(c -> c.sequentialBytes).sum();
  }

  /** Seeks, sequential reads and unbuffers that began while another thread was inside one on the same stream. */
  public synchronized int overlaps() {
    return overlaps;
  }

  /** Waits up to {@code millis} for a first overlap; true if one happened. */
  public boolean awaitOverlap(long millis) throws InterruptedException {
    return overlapped.await(millis, TimeUnit.MILLISECONDS);
  }

  /** From now on, the next sequential read by a thread whose name begins with {@code prefix} waits for {@link #release}. */
  public synchronized void hold(String prefix) {
    holdPrefix = prefix;
    held = new CountDownLatch(1);
    release = new CountDownLatch(1);
  }

  /** Waits up to {@code millis} until a read is held by {@link #hold}; false if none was. */
  public boolean awaitHeld(long millis) throws InterruptedException {
    CountDownLatch h;
    synchronized (this) {
      h = held;
    }
    return h.await(millis, TimeUnit.MILLISECONDS);
  }

  /** Lets the held read go on; reads are not held any more. */
  public void release() {
    CountDownLatch r;
    synchronized (this) {
      r = release;
      holdPrefix = null;
    }
    r.countDown();
  }

  /** One counted stream. */
  private final class Counted extends ForwardingInputStream {
    private long positionedReads;
    private long sequentialBytes;
    private boolean holding;
    private boolean closed;
    /** Threads inside a seek, sequential read or unbuffer of this stream. */
    private int inside;

    Counted(FSDataInputStream in) {
      super(in);
    }

    /** Enters a seek, sequential read or unbuffer; a sequential read may be held ({@link #hold}). */
    private void enter(boolean sequentialRead) throws IOException {
      CountDownLatch wait = null;
      synchronized (StreamCountingFileSystem.this) {
        if (inside > 0) {
          overlaps++;
          overlapped.countDown();
        }
        inside++;
        if (sequentialRead && holdPrefix != null && Thread.currentThread().getName().startsWith(holdPrefix)) {
          holdPrefix = null;
          held.countDown();
          wait = release;
        }
      }
      if (wait != null) {
        try {
          wait.await();
        } catch (InterruptedException e) {
          exit();
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while held");
        }
      }
    }

    private void exit() {
      synchronized (StreamCountingFileSystem.this) {
        inside--;
      }
    }

    @Override
    public void seek(long pos) throws IOException {
      enter(false);
      try {
        in.seek(pos);
      } finally {
        exit();
      }
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      enter(true);
      try {
        int n = in.read(b, off, len);
        count(Math.max(n, 0));
        return n;
      } finally {
        exit();
      }
    }

    private void count(int bytes) {
      synchronized (StreamCountingFileSystem.this) {
        sequentialBytes += bytes;
        holding = true;
      }
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      positioned();
      return in.read(position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      positioned();
      in.readFully(position, buffer, offset, length);
    }

    private void positioned() {
      synchronized (StreamCountingFileSystem.this) {
        positionedReads++;
      }
    }

    @Override
    public void unbuffer() {
      try {
        enter(false);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      try {
        synchronized (StreamCountingFileSystem.this) {
          holding = false;
        }
        in.unbuffer();
      } finally {
        exit();
      }
    }

    @Override
    public boolean hasCapability(String capability) {
      return StreamCapabilities.UNBUFFER.equalsIgnoreCase(capability) || in.hasCapability(capability);
    }

    @Override
    public void close() throws IOException {
      synchronized (StreamCountingFileSystem.this) {
        closed = true;
        holding = false;
      }
      in.close();
    }
  }
}
