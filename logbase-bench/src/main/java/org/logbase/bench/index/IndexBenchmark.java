package org.logbase.bench.index;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.logbase.index.BLinkTree;
import org.logbase.index.IndexEntry;
import org.logbase.index.MultiVersionIndex;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * B-link tree versus {@code ConcurrentSkipListMap<VersionedKey, IndexValue>} with the same
 * 16-byte random keys: floor lookups of existing keys, inserts of new keys into an index of
 * 1M entries, each with 1 and 2 threads, and loading 1M sorted entries (the checkpoint recovery
 * path: the tree's bulk builder versus in-order puts into the skip list).
 *
 * <p>Run through {@code bin/bench-index.sh}, or {@code java -cp ... org.openjdk.jmh.Main IndexBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class IndexBenchmark {

  static final int ENTRIES = 1_000_000;
  private static final long SEED = 20120827L;

  /** An index holding {@link #ENTRIES} random entries, and their keys to look up. */
  @State(Scope.Benchmark)
  public static class Populated {
    @Param({"blink", "skiplist"})
    public String index;

    MultiVersionIndex target;
    byte[][] keys;

    @Setup(Level.Trial)
    public void populate() {
      target = IndexKind.of(index).create();
      keys = new RandomEntries(SEED).keys(ENTRIES);
      RandomEntries values = new RandomEntries(SEED + 1);
      for (byte[] key : keys) {
        target.put(key, values.nextTimestamp(), values.nextPointer(), values.nextMeta());
      }
    }
  }

  /** Like {@link Populated}, but rebuilt before every iteration because inserts grow it. */
  @State(Scope.Benchmark)
  public static class Growing {
    @Param({"blink", "skiplist"})
    public String index;

    MultiVersionIndex target;

    @Setup(Level.Iteration)
    public void populate() {
      target = IndexKind.of(index).create();
      new RandomEntries(SEED).putInto(target, ENTRIES);
    }
  }

  /** {@link #ENTRIES} random entries in index order, as a checkpoint would hold them. */
  @State(Scope.Benchmark)
  public static class Sorted {
    @Param({"blink", "skiplist"})
    public String index;

    byte[][] keys;
    long[] timestamps;

    @Setup(Level.Trial)
    public void generate() {
      RandomEntries random = new RandomEntries(SEED);
      keys = random.keys(ENTRIES);
      Arrays.sort(keys, Arrays::compareUnsigned);
      // Re-allocate in sorted order, so keys lie in memory in the order they are read, as when
      // decoded from a checkpoint stream; otherwise each add would pay a cache miss to fetch its key.
      Arrays.setAll(keys, i -> keys[i].clone());
      timestamps = new long[ENTRIES];
      Arrays.setAll(timestamps, i -> random.nextTimestamp());
    }
  }

  /** Per-thread random source, seeded differently for each thread. */
  @State(Scope.Thread)
  public static class ThreadRandom {
    private static final AtomicLong SEEDS = new AtomicLong(SEED * 31);

    RandomEntries random;

    @Setup(Level.Trial)
    public void seed() {
      random = new RandomEntries(SEEDS.incrementAndGet());
    }
  }

  @Benchmark
  @Threads(1)
  public IndexEntry lookup1(Populated p, ThreadRandom t) {
    return lookup(p, t);
  }

  @Benchmark
  @Threads(2)
  public IndexEntry lookup2(Populated p, ThreadRandom t) {
    return lookup(p, t);
  }

  @Benchmark
  @Threads(1)
  public void insert1(Growing g, ThreadRandom t) {
    insert(g, t);
  }

  @Benchmark
  @Threads(2)
  public void insert2(Growing g, ThreadRandom t) {
    insert(g, t);
  }

  @Benchmark
  @Threads(1)
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public MultiVersionIndex load1M(Sorted s) {
    if (IndexKind.of(s.index) == IndexKind.BLINK) {
      BLinkTree.Builder builder = BLinkTree.builder();
      for (int i = 0; i < ENTRIES; i++) {
        builder.add(s.keys[i], s.timestamps[i], i, i);
      }
      return builder.build();
    }
    MultiVersionIndex skipList = IndexKind.SKIPLIST.create();
    for (int i = 0; i < ENTRIES; i++) {
      skipList.put(s.keys[i], s.timestamps[i], i, i);
    }
    return skipList;
  }

  private static IndexEntry lookup(Populated p, ThreadRandom t) {
    return p.target.floor(p.keys[t.random.nextIndex(ENTRIES)], Long.MAX_VALUE);
  }

  private static void insert(Growing g, ThreadRandom t) {
    RandomEntries r = t.random;
    g.target.put(r.nextKey(), r.nextTimestamp(), r.nextPointer(), r.nextMeta());
  }
}
