package org.logbase.bench.index;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.Locale;
import org.logbase.index.BLinkTree;
import org.logbase.index.IndexCursor;
import org.logbase.index.MultiVersionIndex;

/**
 * Retained heap per entry of the B-link tree (filled by individual puts, then bulk-loaded from
 * it) and of the {@code ConcurrentSkipListMap} baseline, for N random entries with 16-byte keys.
 *
 * <p>Keys are regenerated from a seeded generator rather than kept in an array, so the only
 * thing retained between the two heap readings is the structure itself. Usage:
 * {@code java -Xmx6g -cp ... org.logbase.bench.index.IndexHeapFootprint [entries]}.
 */
public final class IndexHeapFootprint {

  private static final long SEED = 42;
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private IndexHeapFootprint() {}

  public static void main(String[] args) {
    long entries = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    System.out.printf(Locale.ROOT, "entries: %,d, 16-byte random keys, payload %d bytes/entry%n",
        entries, RandomEntries.KEY_LENGTH + 8 + 8 + 4);
    System.out.printf(Locale.ROOT, "%-28s %14s %12s %10s%n", "structure", "retained MiB", "bytes/entry", "build s");

    long base = usedHeapAfterGc();
    long start = System.nanoTime();
    MultiVersionIndex byPuts = new BLinkTree();
    new RandomEntries(SEED).putInto(byPuts, entries);
    double putSeconds = seconds(start);
    double blink = report("BLinkTree (puts)", usedHeapAfterGc() - base, entries, putSeconds);

    start = System.nanoTime();
    MultiVersionIndex bulk = bulkCopy(byPuts);
    double bulkSeconds = seconds(start);
    byPuts = null; // only the bulk-loaded copy stays reachable for the next reading
    report("BLinkTree (bulk load)", usedHeapAfterGc() - base, entries, bulkSeconds);
    Reference.reachabilityFence(bulk);
    bulk = null;

    base = usedHeapAfterGc();
    start = System.nanoTime();
    MultiVersionIndex skipList = IndexKind.SKIPLIST.create();
    new RandomEntries(SEED).putInto(skipList, entries);
    double skipSeconds = seconds(start);
    double cslm = report("ConcurrentSkipListMap", usedHeapAfterGc() - base, entries, skipSeconds);
    Reference.reachabilityFence(skipList);

    System.out.printf(Locale.ROOT, "ratio skiplist/blink (puts): %.2fx%n", cslm / blink);
  }

  /** Rebuilds an index with the bulk loader, as recovery from a checkpoint does. */
  private static BLinkTree bulkCopy(MultiVersionIndex source) {
    BLinkTree.Builder builder = BLinkTree.builder();
    IndexCursor cursor = source.range(null, null);
    while (cursor.next()) {
      builder.add(cursor.key(), cursor.timestamp(), cursor.pointer(), cursor.meta());
    }
    return builder.build();
  }

  private static double report(String name, long bytes, long entries, double buildSeconds) {
    double perEntry = (double) bytes / entries;
    System.out.printf(Locale.ROOT, "%-28s %14.1f %12.1f %10.1f%n", name, bytes / 1048576.0, perEntry, buildSeconds);
    return perEntry;
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** Used heap after several full collections, once it stops shrinking. */
  private static long usedHeapAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long now = MEMORY.getHeapMemoryUsage().getUsed();
      if (i >= 3 && now >= used) {
        return now;
      }
      used = Math.min(used, now);
    }
    return used;
  }
}
