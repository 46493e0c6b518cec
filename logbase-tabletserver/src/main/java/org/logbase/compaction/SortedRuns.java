package org.logbase.compaction;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.logbase.common.Closeables;
import org.logbase.sorted.BlockCache;
import org.logbase.sorted.Compression;
import org.logbase.sorted.EntryIterator;
import org.logbase.sorted.MergingIterator;
import org.logbase.sorted.SegmentIdentity;
import org.logbase.sorted.SegmentOptions;
import org.logbase.sorted.SortedFormats;
import org.logbase.sorted.SortedSegmentReader;
import org.logbase.sorted.SortedEntry;
import org.logbase.sorted.SortedSegmentWriter;

/**
 * The temporary sorted runs of one column group's compaction ({@link SortedFormats#runName}, next to
 * the segment it writes): each written once from entries in entry order, uncompressed and not
 * synced (a crash loses a compaction's runs anyway), then read back once by the merge; both count
 * against the compaction's throttle. Runs never overlap in versions (each holds other versions of
 * the index), so their order in the merge does not matter. At most {@link #MAX_OPEN} are read at
 * once: beyond that, the first ones are merged into a new run first. Closing deletes them all; a
 * crash leaves them to the tablet's next opener.
 */
final class SortedRuns implements Closeable {
  /** Runs the merge reads at once at most (each holds a stream and a block). */
  static final int MAX_OPEN = 64;

  private final FileSystem fs;
  private final Path dir;
  private final SegmentIdentity identity;
  private final Throttle throttle;
  private final List<Path> runs = new ArrayList<>();
  private final List<Closeable> open = new ArrayList<>();
  private final List<Path> written = new ArrayList<>();
  private long bytesWritten;
  private int merges;

  /**
   * @param identity the segment the compaction writes: its id names the runs
   * @param throttle what writing a run and reading it back count against
   */
  SortedRuns(FileSystem fs, Path dir, SegmentIdentity identity, Throttle throttle) {
    this.fs = fs;
    this.dir = dir;
    this.identity = identity;
    this.throttle = throttle;
  }

  /**
   * Writes the entries {@code in} gives (in entry order) into a new run, and closes {@code in}.
   *
   * @return how many entries the run holds
   */
  long write(EntryIterator in) throws IOException {
    try (in) {
      Path path = new Path(dir, SortedFormats.runName(identity.fileId(), written.size()));
      written.add(path);
      try (SortedSegmentWriter w = SortedFormats.current().create(fs, path, identity,
          SegmentOptions.defaults(Compression.NONE).withBloomBitsPerKey(1).withoutSync())) {
        long n = 0;
        while (in.hasNext()) {
          SortedEntry e = in.next();
          w.append(e);
          n++;
          throttle.acquire(ThrottledEntries.bytes(e));
        }
        bytesWritten += w.finish().fileBytes();
        runs.add(path);
        return n;
      }
    }
  }

  /**
   * The runs, to be read once in entry order, each counting against the throttle: at most {@link
   * #MAX_OPEN}; with more, the first ones are merged into one new run first, as few as leave that
   * many (at most {@link #MAX_OPEN} at a time).
   */
  List<EntryIterator> read() throws IOException {
    while (runs.size() > MAX_OPEN) {
      int k = Math.min(MAX_OPEN, runs.size() - MAX_OPEN + 1);
      List<Path> first = new ArrayList<>(runs.subList(0, k));
      runs.subList(0, k).clear();
      List<Closeable> readers = new ArrayList<>();
      try {
        List<EntryIterator> scans = new ArrayList<>();
        for (Path p : first) {
          scans.add(scan(p, readers));
        }
        write(new MergingIterator(scans));
      } catch (IOException | RuntimeException e) {
        Closeables.closeAllAfter(readers, e);
        throw e;
      }
      Closeables.closeAll(readers);
      merges++;
      for (Path p : first) {
        fs.delete(p, false);
      }
    }
    List<EntryIterator> scans = new ArrayList<>();
    for (Path p : runs) {
      scans.add(scan(p, open));
    }
    return scans;
  }

  /** A scan of the run at {@code path}, its reader added to {@code readers}. */
  private EntryIterator scan(Path path, List<Closeable> readers) throws IOException {
    SortedSegmentReader r = SortedFormats.open(fs, path, BlockCache.none());
    readers.add(r);
    return new ThrottledEntries(r.scan(null, null, false), throttle);
  }

  /** Runs written so far (merges of runs included). */
  int count() {
    return written.size();
  }

  /** Bytes of the runs written so far. */
  long bytesWritten() {
    return bytesWritten;
  }

  /** How many times runs were merged into a new run before the last merge. */
  int merges() {
    return merges;
  }

  /** Closes the runs' readers and deletes every run. */
  @Override
  public void close() throws IOException {
    List<Closeable> all = new ArrayList<>(open);
    for (Path p : written) {
      all.add(() -> fs.delete(p, false));
    }
    open.clear();
    Closeables.closeAll(all);
  }
}
