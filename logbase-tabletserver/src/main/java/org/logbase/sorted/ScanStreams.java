package org.logbase.sorted;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import org.apache.hadoop.fs.FSDataInputStream;
import org.logbase.common.Closeables;

/**
 * The streams of one segment file that scans ({@link ScanBlocks}) read through, kept between
 * scans: opening an HDFS stream asks the NameNode where the file's blocks are, which a scan of a
 * few megabytes should not pay each time (a client paging through a tablet runs one scan per page).
 * A scan takes a stream and gives it back when it ends; a stream given back is unbuffered (HDFS
 * closes its connection to the DataNode, so an idle stream holds no socket), and at most {@link
 * #MAX_IDLE} are kept: the others are closed. {@link #close} closes the idle ones, and any given
 * back after it. Thread-safe.
 */
final class ScanStreams implements Closeable {
  /** Idle streams kept for the next scans. */
  static final int MAX_IDLE = 2;

  private final PositionedFile file;
  private final ArrayDeque<FSDataInputStream> idle = new ArrayDeque<>();
  private boolean closed;

  ScanStreams(PositionedFile file) {
    this.file = file;
  }

  /** An idle stream, or a new one; give it back when done. */
  FSDataInputStream take() throws IOException {
    synchronized (this) {
      if (closed) {
        throw new IOException("the reader of " + file.path() + " is closed");
      }
      FSDataInputStream s = idle.pollFirst();
      if (s != null) {
        return s;
      }
    }
    return file.openStream();
  }

  /** Takes back a stream from {@link #take}: unbuffered and kept, or closed. */
  void give(FSDataInputStream s) throws IOException {
    try {
      s.unbuffer();
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    boolean keep;
    synchronized (this) {
      keep = !closed && idle.size() < MAX_IDLE;
      if (keep) {
        idle.addFirst(s);
      }
    }
    if (!keep) {
      s.close();
    }
  }

  @Override
  public void close() throws IOException {
    ArrayDeque<FSDataInputStream> streams;
    synchronized (this) {
      closed = true;
      streams = new ArrayDeque<>(idle);
      idle.clear();
    }
    Closeables.closeAll(streams);
  }
}
