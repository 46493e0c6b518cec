package org.logbase.compaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import org.logbase.index.IndexCursor;

/**
 * Cuts the log into regions, each holding the records of about one chunk of a compaction's versions
 * ({@code compaction.chunk.bytes}, estimated as {@link IndexChunks.Pointer#cost}), so that the
 * versions can be read region by region: every part of the log once, instead of once per chunk of
 * consecutive keys. One pass over the index counts the cost of its versions per bucket of the log
 * (the pointer's high bits: a bucket is an eighth of a chunk's bytes, 64 bytes to 16 MiB, and never
 * spans two files); consecutive buckets are then taken together while they fit a chunk. A bucket
 * alone may cost more than a chunk (records much smaller than their keys and the per-version
 * overhead); its region is then read in several chunks.
 */
final class LogRegions {
  private static final int MIN_SHIFT = 6;
  private static final int MAX_SHIFT = 24;

  /** The buckets {@code first} to {@code last} of the log, and the cost and number of the versions in them. */
  record Region(int shift, long first, long last, long cost, long versions) {
    boolean holds(long pointer) {
      long bucket = pointer >>> shift;
      return bucket >= first && bucket <= last;
    }
  }

  private LogRegions() {}

  /** The bucket size (a power of two, as a shift) for chunks of {@code chunkBytes}. */
  static int shift(long chunkBytes) {
    long eighth = Math.max(1, chunkBytes / 8);
    int shift = 63 - Long.numberOfLeadingZeros(eighth);
    return Math.max(MIN_SHIFT, Math.min(MAX_SHIFT, shift));
  }

  /**
   * The regions of the versions {@code cursor} gives (less those {@code skip} accepts, by pointer), in
   * log order; none if there are no such versions.
   */
  static List<Region> plan(IndexCursor cursor, LongPredicate skip, long chunkBytes) {
    int shift = shift(chunkBytes);
    TreeMap<Long, long[]> buckets = new TreeMap<>(); // bucket -> {cost, versions}
    while (cursor.next()) {
      long pointer = cursor.pointer();
      if (!skip.test(pointer)) {
        long[] b = buckets.computeIfAbsent(pointer >>> shift, k -> new long[2]);
        b[0] += IndexChunks.Pointer.cost(cursor.key().length, cursor.meta());
        b[1]++;
      }
    }
    List<Region> regions = new ArrayList<>();
    long first = -1;
    long last = -1;
    long cost = 0;
    long versions = 0;
    for (Map.Entry<Long, long[]> b : buckets.entrySet()) {
      if (first >= 0 && cost + b.getValue()[0] > chunkBytes) {
        regions.add(new Region(shift, first, last, cost, versions));
        first = -1;
        cost = 0;
        versions = 0;
      }
      if (first < 0) {
        first = b.getKey();
      }
      last = b.getKey();
      cost += b.getValue()[0];
      versions += b.getValue()[1];
    }
    if (first >= 0) {
      regions.add(new Region(shift, first, last, cost, versions));
    }
    return regions;
  }
}
