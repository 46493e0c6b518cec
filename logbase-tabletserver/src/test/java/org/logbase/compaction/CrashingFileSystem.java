package org.logbase.compaction;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A file system (wrapping a compacting child's engine) that stops the process at one moment of a
 * compaction or of the log's garbage collection after it, named by {@link Moment}: it prints {@code AT <moment>} and waits, so the test kills it
 * with kill -9 right there. Lives with the tests: the product has no such switch.
 */
final class CrashingFileSystem extends FilterFileSystem {
  /** Where a compaction is stopped, in the order a compaction reaches them. */
  enum Moment {
    RUN_HALF_WRITTEN, // the first temporary sorted run of the compaction's input part written
    RUN_WRITTEN, // a temporary sorted run of the compaction's input written and renamed; others to come
    SEGMENT_CREATED, // the sorted segment's file exists, empty
    SEGMENT_HALF_WRITTEN, // some of its blocks are written
    SEGMENT_COMPLETE, // written and synced under its temporary name, not in force
    SEGMENT_RENAMED, // renamed to its own name, not in force
    INDEX_FILE, // the switch done in memory; the checkpoint after it writes the tail's index file
    MANIFEST_BEFORE, // that checkpoint's manifest edit, about to be written
    MANIFEST_AFTER, // the manifest edit written: the new segment is in force on disk
    DELETING_OLD_SEGMENT, // a later compaction's checkpoint deletes a segment no kept checkpoint names
    DELETING_LOG_SEGMENT // the log's garbage collection deletes a log segment no tablet needs
  }

  private static final int HALF_BYTES = 8192;
  private final Moment moment;
  private volatile boolean segmentDone;

  CrashingFileSystem(FileSystem inner, Moment moment) {
    super(inner);
    this.moment = moment;
  }

  private void stopIf(Moment m) {
    if (m != moment) {
      return;
    }
    System.out.println("AT " + m);
    System.out.flush();
    // Nothing after this moment may happen: park until the test kills this process.
    CountDownLatch never = new CountDownLatch(1);
    while (true) {
      try {
        never.await();
      } catch (InterruptedException e) {
        // Keep waiting.
      }
    }
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    FSDataOutputStream out = super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    String name = f.getName();
    if (name.startsWith("sorted-")) {
      stopIf(Moment.SEGMENT_CREATED);
      return new FSDataOutputStream(new Watched(out), statistics);
    }
    if (name.startsWith("run-")) {
      return new FSDataOutputStream(new HalfWay(out, Moment.RUN_HALF_WRITTEN), statistics);
    }
    if (segmentDone && name.endsWith(".idx.tmp")) {
      stopIf(Moment.INDEX_FILE);
    }
    if (segmentDone && name.startsWith("MANIFEST")) {
      stopIf(Moment.MANIFEST_BEFORE);
      return new FSDataOutputStream(new AfterClose(out), statistics);
    }
    return out;
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    boolean renamed = super.rename(src, dst);
    if (src.getName().startsWith("sorted-")) {
      stopIf(Moment.SEGMENT_RENAMED);
    }
    if (src.getName().startsWith("run-")) {
      stopIf(Moment.RUN_WRITTEN);
    }
    return renamed;
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    if (f.getName().startsWith("sorted-") && !f.getName().endsWith(".tmp")) { // not an unfinished one
      stopIf(Moment.DELETING_OLD_SEGMENT);
    }
    if (f.getName().startsWith("seg-")) {
      stopIf(Moment.DELETING_LOG_SEGMENT);
    }
    return super.delete(f, recursive);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    if (segmentDone && f.getName().startsWith("MANIFEST")) {
      stopIf(Moment.MANIFEST_BEFORE);
      return new FSDataOutputStream(new AfterClose(super.append(f, bufferSize, progress)), statistics);
    }
    return super.append(f, bufferSize, progress);
  }

  /**
   * A file being written (a run, or a segment): stops at {@code half} once half way, what it wrote
   * so far flushed.
   */
  private class HalfWay extends FilterOutputStream {
    final FSDataOutputStream inner;
    private final Moment half;
    private long written;

    HalfWay(FSDataOutputStream inner, Moment half) {
      super(inner);
      this.inner = inner;
      this.half = half;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      inner.write(b, off, len);
      written += len;
      if (written >= HALF_BYTES && moment == half) {
        inner.hflush();
        stopIf(half);
      }
    }

    @Override
    public void write(int b) throws IOException {
      inner.write(b);
      written++;
    }
  }

  /** A sorted segment being written: stops half way, or once complete. */
  private final class Watched extends HalfWay {
    Watched(FSDataOutputStream inner) {
      super(inner, Moment.SEGMENT_HALF_WRITTEN);
    }

    @Override
    public void flush() throws IOException {
      inner.hflush();
    }

    @Override
    public void close() throws IOException {
      inner.hsync();
      inner.close();
      segmentDone = true;
      stopIf(Moment.SEGMENT_COMPLETE);
    }
  }

  /** The manifest being written: stops once it is closed (durable). */
  private final class AfterClose extends FilterOutputStream {
    private final OutputStream inner;

    AfterClose(OutputStream inner) {
      super(inner);
      this.inner = inner;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      inner.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      inner.close();
      stopIf(Moment.MANIFEST_AFTER);
    }
  }
}
