package org.logbase.sorted;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A file system (wrapping a real one) that counts what is done with the input streams of files whose
 * name ends with a suffix: streams opened and still open, positioned reads, bytes read sequentially
 * (through the stream's position), and streams that read sequentially and were neither unbuffered
 * nor closed since (on HDFS: that still hold a connection to a DataNode). Lives with the tests: the
 * product counts nothing.
 */
public final class StreamCountingFileSystem extends FilterFileSystem {
  private final String suffix;
  private final List<Counted> streams = new ArrayList<>();

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

  /** One counted stream. */
  private final class Counted extends FSInputStream implements CanUnbuffer, StreamCapabilities {
    private final FSDataInputStream in;
    private long positionedReads;
    private long sequentialBytes;
    private boolean holding;
    private boolean closed;

    Counted(FSDataInputStream in) {
      this.in = in;
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) throws IOException {
      return in.seekToNewSource(targetPos);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      count(Math.max(n, 0));
      return n;
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

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }

    private void positioned() {
      synchronized (StreamCountingFileSystem.this) {
        positionedReads++;
      }
    }

    @Override
    public void unbuffer() {
      synchronized (StreamCountingFileSystem.this) {
        holding = false;
      }
      in.unbuffer();
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
