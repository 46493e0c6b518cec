package org.logbase.tablet;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Closeables;
import org.logbase.common.Config;
import org.logbase.files.ReadsInProgress;
import org.logbase.files.SharedPaths;
import org.logbase.rpc.SortedRef;
import org.logbase.sorted.BlockArrays;
import org.logbase.sorted.BlockCache;
import org.logbase.sorted.CaffeineBlockCache;
import org.logbase.sorted.ReadAhead;
import org.logbase.sorted.ScanFileSystem;
import org.logbase.sorted.SortedFormats;
import org.logbase.sorted.SortedSegmentReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sorted segments a server reads, one open reader per file however many tablets name it (the
 * daughters of a split share their parent's), the block cache they share
 * ({@code sorted.block.cache.bytes}, default 64 MiB; 0: none), the file system their scans open
 * streams through ({@code sorted.scan.hdfs.checksums}, default false: on HDFS, a client of its own
 * that skips HDFS's checksums, {@link ScanFileSystem}) and the threads their scans may read ahead
 * with ({@code sorted.scan.read.ahead.blocks}, default 0: none; {@code
 * sorted.scan.read.ahead.threads}, default 2 per core, scans at once; a read-ahead whose
 * scan takes nothing for {@code sorted.scan.read.ahead.idle.ms}, default 100, frees its thread) and
 * the arrays their scans read blocks into ({@code sorted.scan.arrays.bytes}, default 16 MiB kept
 * idle at most, {@link BlockArrays}). A reader stays open
 * until its file is deleted or the server closes. A segment no kept checkpoint names any more is
 * {@link #retire retired}: it is deleted (and its reader closed) once no read that began before is in
 * progress ({@link ReadsInProgress}), at the first {@link #deleteRetired} after that.
 */
public final class SortedSegments implements Closeable {
  public static final String BLOCK_CACHE_BYTES = "sorted.block.cache.bytes";
  static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;
  public static final String READ_AHEAD_BLOCKS = "sorted.scan.read.ahead.blocks";
  /**
   * None: on 2 cores with the DataNode beside it, a scan that reads its own blocks reads about 1.6
   * times as fast as one handed them by another thread (docs/benchmarks.md); the DataNode already
   * sends ahead into the socket's buffer.
   */
  static final int DEFAULT_READ_AHEAD_BLOCKS = 0;
  public static final String READ_AHEAD_THREADS = "sorted.scan.read.ahead.threads";
  public static final String READ_AHEAD_IDLE_MS = "sorted.scan.read.ahead.idle.ms";
  public static final String SCAN_HDFS_CHECKSUMS = "sorted.scan.hdfs.checksums";
  public static final String SCAN_ARRAYS_BYTES = "sorted.scan.arrays.bytes";
  /** Each block read ahead is held in memory (64 KiB by default): 64 of them, 4 MiB, per scan at most. */
  static final int MAX_READ_AHEAD_BLOCKS = 64;
  static final int MAX_READ_AHEAD_THREADS = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(SortedSegments.class);

  private final FileSystem fs;
  private final ReadsInProgress reads;
  private final BlockCache cache;
  private final ReadAhead readAhead;
  private final ScanFileSystem scanFs;
  private final BlockArrays arrays;
  /** By the path manifests store (one file id per path). */
  private final Map<String, SortedSegment> open = new HashMap<>();
  /** Segments to delete, by stored path, with the mark of reads that may still use them. */
  private final Map<String, Retired> retired = new LinkedHashMap<>();
  /** Retired segments one {@link #deleteRetired} call is deleting now. */
  private final Set<String> deleting = new HashSet<>();

  public SortedSegments(FileSystem fs, Config config, ReadsInProgress reads) {
    this.fs = fs;
    this.reads = reads;
    long bytes = config.getBytes(BLOCK_CACHE_BYTES, DEFAULT_BLOCK_CACHE_BYTES);
    this.cache = bytes == 0 ? BlockCache.none() : new CaffeineBlockCache(bytes);
    int depth = config.getInt(READ_AHEAD_BLOCKS, DEFAULT_READ_AHEAD_BLOCKS);
    int threads = config.getInt(READ_AHEAD_THREADS, 2 * Runtime.getRuntime().availableProcessors());
    if (depth < 0 || depth > MAX_READ_AHEAD_BLOCKS || threads < 0 || threads > MAX_READ_AHEAD_THREADS) {
      throw new IllegalArgumentException(READ_AHEAD_BLOCKS + " must be 0 to " + MAX_READ_AHEAD_BLOCKS + " and "
          + READ_AHEAD_THREADS + " 0 to " + MAX_READ_AHEAD_THREADS + ", not " + depth + " and " + threads);
    }
    long idleMs = config.getLong(READ_AHEAD_IDLE_MS, ReadAhead.DEFAULT_IDLE_MS);
    if (idleMs < 1) {
      throw new IllegalArgumentException(READ_AHEAD_IDLE_MS + " must be at least 1, not " + idleMs);
    }
    long arrayBytes = config.getBytes(SCAN_ARRAYS_BYTES, BlockArrays.DEFAULT_BYTES);
    if (arrayBytes < 0) {
      throw new IllegalArgumentException(SCAN_ARRAYS_BYTES + " must be 0 or more, not " + arrayBytes);
    }
    this.arrays = new BlockArrays(arrayBytes);
    boolean hdfsChecksums = config.getBoolean(SCAN_HDFS_CHECKSUMS, false);
    this.readAhead = ReadAhead.of(depth, threads, idleMs);
    this.scanFs = hdfsChecksums ? ScanFileSystem.of(fs) : scansWithoutHdfsChecksums(fs);
    if (!scanFs.verifies()) {
      LOG.info("scans of sorted segments read without HDFS's checksums through a client of their own; each block's"
          + " CRC32C is checked ({}=true: with them)", SCAN_HDFS_CHECKSUMS);
    }
  }

  private static ScanFileSystem scansWithoutHdfsChecksums(FileSystem fs) {
    try {
      return ScanFileSystem.withoutHdfsChecksums(fs);
    } catch (IOException e) {
      LOG.warn("scans of sorted segments read with HDFS's checksums: no second HDFS client without them could be"
          + " made", e);
      return ScanFileSystem.of(fs);
    }
  }

  /** The segment a manifest names, opened (and its footer, index and filter checked) on first use. */
  public synchronized SortedSegment open(SortedRef ref) throws IOException {
    SortedSegment s = open.get(ref.getPath());
    if (s == null) {
      SortedSegmentReader r =
          SortedFormats.open(fs, SharedPaths.resolve(fs, ref.getPath()), cache, readAhead, scanFs, arrays);
      s = new SortedSegment(ref.getFileId(), ref.getPath(), r);
      open.put(ref.getPath(), s);
    }
    return s;
  }

  /** A segment just written by this server, opened for reading. */
  public SortedSegment open(long fileId, Path path) throws IOException {
    return open(SortedRef.newBuilder().setFileId(fileId).setPath(SharedPaths.store(fs, path)).build());
  }

  /** The long reads on this server, which retired segments wait for. */
  public ReadsInProgress reads() {
    return reads;
  }

  /**
   * Marks a segment for deletion: no tablet names it now, but a read begun before this call may
   * still read it. Retiring a segment twice keeps the first mark.
   */
  public synchronized void retire(String storedPath) {
    retired.putIfAbsent(storedPath, new Retired(reads.mark(), System.nanoTime()));
  }

  /**
   * Deletes the retired segments that no read in progress can use, closing their readers first.
   * Several threads may call this at once: a segment is deleted by one of them.
   *
   * @return the stored paths this call deleted
   * @throws IOException the first deletion that failed, after trying the others (a segment whose
   *     deletion failed stays retired, for the next call)
   */
  public List<String> deleteRetired() throws IOException {
    List<String> due = new ArrayList<>();
    synchronized (this) {
      for (Map.Entry<String, Retired> r : retired.entrySet()) {
        if (!reads.anyBegunBefore(r.getValue().mark()) && deleting.add(r.getKey())) {
          due.add(r.getKey());
        }
      }
    }
    List<String> deleted = new ArrayList<>();
    IOException failed = null;
    for (String p : due) {
      try {
        delete(p);
        deleted.add(p);
      } catch (IOException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      } finally {
        synchronized (this) {
          deleting.remove(p);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
    return deleted;
  }

  private void delete(String storedPath) throws IOException {
    SortedSegment s;
    synchronized (this) {
      s = open.remove(storedPath);
    }
    if (s != null) {
      s.reader().close();
    }
    Path path = SharedPaths.resolve(fs, storedPath);
    if (!fs.delete(path, false) && fs.exists(path)) {
      throw new IOException("could not delete the sorted segment " + path);
    }
    Retired r;
    synchronized (this) {
      r = retired.remove(storedPath);
    }
    long waitedMs = r == null ? 0 : (System.nanoTime() - r.sinceNanos()) / 1_000_000;
    if (waitedMs >= 1000) {
      LOG.info("deleted sorted segment {}, retired {} ms ago: it waited for scans that began before", path, waitedMs);
    }
  }

  /** A retired segment: the mark of the reads it waits for, and when it was retired. */
  private record Retired(long mark, long sinceNanos) {}

  @Override
  public synchronized void close() throws IOException {
    readAhead.close();
    List<Closeable> all = new ArrayList<>();
    for (SortedSegment s : open.values()) {
      all.add(s.reader());
    }
    open.clear();
    all.add(scanFs); // after the readers: their idle streams are its
    Closeables.closeAll(all);
  }

}
