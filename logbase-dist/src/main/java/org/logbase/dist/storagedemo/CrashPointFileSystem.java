package org.logbase.dist.storagedemo;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.logbase.files.ForwardingInputStream;
import org.logbase.files.ForwardingOutputStream;
import org.logbase.log.RecordCodec;
import org.logbase.log.RecordType;
import org.logbase.log.SegmentFiles;

/**
 * A file system that stops the storage engine's writer at a chosen moment of its file traffic, for
 * crash tests: the test's {@code kill -9} then lands exactly there. The engine has no hooks for
 * this; everything is seen from outside, as file operations (EngineOptions#withFileSystem).
 *
 * <p>The moments ({@link Point}), each at its n-th occurrence: a group-commit batch half on disk (the
 * frames before a COMMIT record flushed, the COMMIT not written), a batch flushed but not yet
 * acknowledged, a new segment just started, a checkpoint's index file half written, a checkpoint's
 * index complete but its manifest not written, and recovery in the middle of replaying the log.
 */
final class CrashPointFileSystem extends FilterFileSystem {
  /** Where to stop. */
  enum Point {
    LOG_MID_BATCH("log.mid-batch"),
    LOG_AFTER_FLUSH("log.after-flush"),
    LOG_ROLL("log.roll"),
    CHECKPOINT_MID_INDEX("checkpoint.mid-index"),
    CHECKPOINT_BEFORE_MANIFEST("checkpoint.before-manifest"),
    RECOVERY_REPLAY("recovery.replay");

    final String label;

    Point(String label) {
      this.label = label;
    }

    /** The point with this label, or null. */
    static Point of(String label) {
      for (Point p : values()) {
        if (p.label.equals(label)) {
          return p;
        }
      }
      return null;
    }
  }

  /** Bytes of log a recovery reads before it is stopped at {@link Point#RECOVERY_REPLAY}. */
  private static final long REPLAY_BYTES = 64 << 10;
  /** Byte of a frame holding the record type: after bodyLength, crc and the format version. */
  private static final int TYPE_BYTE = RecordCodec.FRAME_HEADER_BYTES + 1;

  private final Point point;
  private final int nth;
  private final Runnable stop;
  private final AtomicInteger seen = new AtomicInteger();
  private final AtomicInteger segmentsCreated = new AtomicInteger();
  private final AtomicInteger indexFilesCreated = new AtomicInteger();

  /**
   * @param stop called when the point is reached the n-th time; it does not return (it announces the
   *     moment and waits for the kill)
   */
  CrashPointFileSystem(FileSystem inner, Point point, int nth, Runnable stop) {
    super(inner);
    this.point = point;
    this.nth = nth;
    this.stop = stop;
  }

  private void reached() {
    if (seen.incrementAndGet() == nth) {
      stop.run();
    }
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    String name = f.getName();
    if (point == Point.CHECKPOINT_BEFORE_MANIFEST && isManifest(name)) {
      reached(); // the tablet's first manifest, or one written anew
    }
    FSDataOutputStream inner = fs.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    Kind kind = SegmentFiles.number(name) >= 0 ? Kind.SEGMENT : name.endsWith(".idx.tmp") ? Kind.INDEX : Kind.OTHER;
    int ordinal = kind == Kind.SEGMENT ? segmentsCreated.incrementAndGet()
        : kind == Kind.INDEX ? indexFilesCreated.incrementAndGet() : 0;
    return new FSDataOutputStream(new Watched(inner, kind, ordinal), null);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    if (point == Point.CHECKPOINT_BEFORE_MANIFEST && isManifest(f.getName())) {
      reached(); // an edit appended to the tablet's manifest
    }
    return fs.append(f, bufferSize, progress);
  }

  private static boolean isManifest(String name) {
    return name.startsWith("MANIFEST-");
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    FSDataInputStream in = fs.open(f, bufferSize);
    if (point == Point.RECOVERY_REPLAY && SegmentFiles.number(f.getName()) >= 0) {
      return new FSDataInputStream(new CountingInput(in));
    }
    return in;
  }

  private enum Kind { SEGMENT, INDEX, OTHER }

  /** An output stream that reports the moments of the chosen point. */
  private final class Watched extends ForwardingOutputStream {
    private final FSDataOutputStream inner;
    private final Kind kind;
    private final int ordinal;
    private long written;
    private int writes;

    Watched(FSDataOutputStream inner, Kind kind, int ordinal) {
      super(inner);
      this.inner = inner;
      this.kind = kind;
      this.ordinal = ordinal;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      writes++;
      if (point == Point.LOG_MID_BATCH && kind == Kind.SEGMENT && len > TYPE_BYTE
          && b[off + TYPE_BYTE] == RecordType.COMMIT.code() && written > SegmentFiles.HEADER_BYTES) {
        // The records before this COMMIT (a write to several column groups) reach the disk; it never does.
        inner.hflush();
        reached();
      }
      if (point == Point.CHECKPOINT_MID_INDEX && kind == Kind.INDEX && ordinal == nth && writes == 2) {
        inner.hflush(); // the n-th index file's first chunk is on disk, the rest never
        stop.run();
      }
      inner.write(b, off, len);
      written += len;
    }

    @Override
    public void hflush() throws IOException {
      inner.hflush();
      afterFlush();
    }

    @Override
    public void hsync() throws IOException {
      inner.hsync();
      afterFlush();
    }

    private void afterFlush() {
      if (kind != Kind.SEGMENT) {
        return;
      }
      if (point == Point.LOG_AFTER_FLUSH && written > SegmentFiles.HEADER_BYTES) {
        reached();
      }
      if (point == Point.LOG_ROLL && written == SegmentFiles.HEADER_BYTES && ordinal > 1) {
        reached(); // a new segment's header is on disk: the log just rolled
      }
    }

  }

  /** Counts the log bytes a recovery reads, and stops it after {@link #REPLAY_BYTES}. */
  private final class CountingInput extends ForwardingInputStream {
    private long read;

    CountingInput(FSDataInputStream inner) {
      super(inner);
    }

    private int counted(int n) {
      if (n > 0) {
        read += n;
        if (read > REPLAY_BYTES && read - n <= REPLAY_BYTES) {
          reached();
        }
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      counted(b < 0 ? -1 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return counted(super.read(b, off, len));
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      return counted(super.read(position, buffer, offset, length));
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      super.readFully(position, buffer, offset, length);
      counted(length);
    }
  }
}
