package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.sorted.SortedFixture.drain;
import static org.logbase.sorted.SortedFixture.modelGet;
import static org.logbase.sorted.SortedFixture.modelRange;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.logbase.common.Bytes;
import org.logbase.log.LogRecord.Column;

/** Sorted segments read back exactly what was written, and answer lookups as a sorted set does. */
class SortedSegmentRoundTripTest extends LocalFsTest {
  /** Writes the model, checks the file against it in every way there is, returns its stats. */
  SegmentStats roundTrip(String name, SegmentOptions options, NavigableSet<SortedEntry> model,
      SortedFixture.Entries random) throws IOException {
    Path file = SortedFixture.path(tmp, name);
    SegmentStats written = SortedFixture.write(fs, file, options, model);
    try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none())) {
      SegmentStats s = r.stats();
      checkStats(written, model);
      assertEquals(List.of(written.rawBytes(), written.storedBytes(), (long) written.blockCount(),
          written.fileBytes(), written.compression()), List.of(s.rawBytes(), s.storedBytes(),
          (long) s.blockCount(), s.fileBytes(), s.compression()), "the writer's and the reader's stats agree");
      assertEquals(List.copyOf(model), drain(r.scan()), "a full scan returns the model");
      checkStats(s, model);
      List<SortedEntry> all = List.copyOf(model);
      for (SortedEntry e : all) {
        assertTrue(r.mightContain(e.rowKey()), "no false negative");
        for (long asOf : new long[] {e.timestamp(), e.timestamp() - 1, e.timestamp() + 1, Long.MAX_VALUE, 0}) {
          assertEquals(modelGet(model, e.rowKey(), asOf), r.get(e.rowKey(), asOf),
              "get " + e.rowKey().length + "-byte key as of " + asOf);
        }
      }
      for (int i = 0; i < 200; i++) {
        byte[] key = random.key();
        long asOf = random.random.nextInt(1_100_000);
        assertEquals(modelGet(model, key, asOf), r.get(key, asOf));
      }
      for (int i = 0; i < 50; i++) {
        byte[] start = random.random.nextInt(5) == 0 ? null : random.key();
        byte[] end = random.random.nextInt(5) == 0 ? null : random.key();
        try (EntryIterator it = r.scan(start, end)) {
          assertEquals(modelRange(model, start, end), drain(it), "range scan");
        }
      }
      checkSeeks(r, model, random);
      return s;
    }
  }

  static void checkStats(SegmentStats s, NavigableSet<SortedEntry> model) {
    assertEquals(SortedFixture.ID, s.identity());
    assertEquals(1, s.formatVersion());
    assertEquals(model.size(), s.entryCount());
    assertEquals(model.stream().map(e -> Bytes.toStringBinary(e.rowKey()))
        .distinct().count(), s.rowCount());
    assertEquals(model.stream().filter(SortedEntry::isTombstone).count(), s.tombstoneCount());
    if (model.isEmpty()) {
      assertNull(s.minKey());
      assertNull(s.maxKey());
      return;
    }
    assertArrayEquals(model.first().rowKey(), s.minKey());
    assertArrayEquals(model.last().rowKey(), s.maxKey());
    assertEquals(model.stream().mapToLong(SortedEntry::timestamp).min().orElseThrow(), s.minTimestamp());
    assertEquals(model.stream().mapToLong(SortedEntry::timestamp).max().orElseThrow(), s.maxTimestamp());
  }

  /** Seeks back and forth on one iterator land where the model says. */
  static void checkSeeks(SortedSegmentReader r, NavigableSet<SortedEntry> model, SortedFixture.Entries random)
      throws IOException {
    List<SortedEntry> all = List.copyOf(model);
    try (EntryIterator it = r.scan()) {
      for (int i = 0; i < 100; i++) {
        byte[] key = all.isEmpty() || random.random.nextBoolean() ? random.key()
            : all.get(random.random.nextInt(all.size())).rowKey();
        long ts = random.random.nextInt(1_100_000);
        it.seek(key, ts);
        SortedEntry expected = model.ceiling(SortedEntry.tombstone(key, ts));
        assertEquals(expected != null, it.hasNext());
        if (expected != null) {
          assertEquals(expected, it.next());
          SortedEntry after = model.higher(expected);
          assertEquals(after != null, it.hasNext());
          if (after != null) {
            assertEquals(after, it.peek());
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void randomEntriesRoundTrip(Compression compression) throws IOException {
    long seed = 20_260_100L + compression.code();
    System.out.println("randomEntriesRoundTrip " + compression + " seed " + seed);
    SortedFixture.Entries random = new SortedFixture.Entries(seed);
    NavigableSet<SortedEntry> model = random.rows(700, 6);
    SegmentStats s = roundTrip("random.lbs", SegmentOptions.defaults(compression).withBlockBytes(4096), model,
        random);
    assertTrue(s.blockCount() > 10, "several blocks: " + s.blockCount());
    System.out.printf("%s: %d entries, %d blocks, raw %d bytes, stored %d bytes, ratio %.2f%n", compression,
        s.entryCount(), s.blockCount(), s.rawBytes(), s.storedBytes(), s.compressionRatio());
    if (compression == Compression.NONE) {
      assertEquals(s.rawBytes(), s.storedBytes());
    } else {
      assertTrue(s.compressionRatio() > 1.5, "text compresses: " + s.compressionRatio());
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void anEmptySegmentHasNothing(Compression compression) throws IOException {
    SortedFixture.Entries random = new SortedFixture.Entries(1);
    SegmentStats s = roundTrip("empty.lbs", SegmentOptions.defaults(compression), SortedFixture.model(), random);
    assertEquals(0, s.blockCount());
    assertEquals(0, s.minTimestamp());
    assertEquals(36 + 9 + 2 + 100, s.fileBytes(), "header, 64-bit filter, index, footer");
    try (SortedSegmentReader r = SortedFormats.open(fs, SortedFixture.path(tmp, "empty.lbs"), BlockCache.none())) {
      assertFalse(r.mightContain(new byte[0]));
      assertNull(r.get(new byte[] {'a'}, Long.MAX_VALUE));
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void oneEntry(Compression compression) throws IOException {
    NavigableSet<SortedEntry> model = SortedFixture.model();
    model.add(SortedEntry.data(new byte[] {'k'}, 5, List.of(new Column("v", new byte[] {1, 2, 3}))));
    SegmentStats s = roundTrip("one.lbs", SegmentOptions.defaults(compression), model, new SortedFixture.Entries(2));
    assertEquals(1, s.blockCount());
    assertEquals(5, s.minTimestamp());
    assertEquals(5, s.maxTimestamp());
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void valuesLargerThanABlockFillABlockEach(Compression compression) throws IOException {
    SortedFixture.Entries random = new SortedFixture.Entries(3);
    NavigableSet<SortedEntry> model = SortedFixture.model();
    for (int i = 0; i < 12; i++) {
      byte[] key = {'r', (byte) ('a' + i)};
      model.add(SortedEntry.data(key, 100, List.of(new Column("small", random.text(50)))));
      if (i % 3 == 0) {
        model.add(SortedEntry.data(key, 50, List.of(new Column("big", random.text(150_000 + 10_000 * i)),
            new Column("noise", random.noise(70_000)))));
      }
    }
    SegmentStats s = roundTrip("huge.lbs", SegmentOptions.defaults(compression), model, random);
    try (SortedSegmentReader r = SortedFormats.open(fs, SortedFixture.path(tmp, "huge.lbs"), BlockCache.none())) {
      long oversized = r.blocks().stream()
          .filter(b -> b.rawLength() > SegmentOptions.DEFAULT_BLOCK_BYTES).peek(b -> assertEquals(1, b.entryCount()))
          .count();
      assertEquals(4, oversized, "each large entry is a block by itself");
    }
    assertTrue(s.rawBytes() > 4 * 150_000);
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void manyVersionsOfOneRowSpanBlocks(Compression compression) throws IOException {
    SortedFixture.Entries random = new SortedFixture.Entries(4);
    NavigableSet<SortedEntry> model = SortedFixture.model();
    byte[] hot = {'h', 'o', 't'};
    for (int v = 0; v < 3000; v++) {
      model.add(random.entry(hot, 10 + 3L * v)); // gaps: lookups between versions
    }
    model.add(random.entry(new byte[] {'h', 'o'}, 7));
    model.add(random.entry(new byte[] {'h', 'o', 't', 0}, 7));
    SegmentStats s = roundTrip("versions.lbs", SegmentOptions.defaults(compression).withBlockBytes(2048), model,
        random);
    assertEquals(3, s.rowCount());
    try (SortedSegmentReader r = SortedFormats.open(fs, SortedFixture.path(tmp, "versions.lbs"), BlockCache.none())) {
      assertTrue(r.blocks().size() > 20, "the row spans " + r.blocks().size() + " blocks");
      for (long asOf = 0; asOf < 10 + 3L * 3000 + 5; asOf++) {
        assertEquals(modelGet(model, hot, asOf), r.get(hot, asOf), "as of " + asOf);
      }
    }
  }

  @Test
  void aBlockCacheServesBlocksAgainWithinItsBound() throws IOException {
    SortedFixture.Entries random = new SortedFixture.Entries(5);
    NavigableSet<SortedEntry> model = random.rows(500, 3);
    Path file = SortedFixture.path(tmp, "cached.lbs");
    SortedFixture.write(fs, file, SegmentOptions.defaults(Compression.LZ4).withBlockBytes(4096), model);
    CaffeineBlockCache caffeine = new CaffeineBlockCache(1 << 20);
    CountingCache cache = new CountingCache(caffeine);
    try (SortedSegmentReader r = SortedFormats.open(fs, file, cache)) {
      int blocks = r.blocks().size();
      getEach(r, model);
      assertEquals(blocks, cache.puts, "each block read once");
      int hits = cache.hits;
      getEach(r, model);
      assertEquals(model.size(), cache.hits - hits, "the second round reads from the cache");
      assertEquals(blocks, cache.puts);
      assertTrue(caffeine.weightedBytes() > 0 && caffeine.weightedBytes() <= 1 << 20);
    }
    CaffeineBlockCache small = new CaffeineBlockCache(3 * 5000);
    try (SortedSegmentReader r = SortedFormats.open(fs, file, small)) {
      getEach(r, model);
      assertTrue(small.weightedBytes() <= 3 * 5000, "bounded: " + small.weightedBytes());
    }
  }

  /** Gets every entry of the model (each block in turn, as a scan would). */
  static void getEach(SortedSegmentReader r, NavigableSet<SortedEntry> model) throws IOException {
    for (SortedEntry e : model) {
      assertEquals(e, r.get(e.rowKey(), e.timestamp()));
    }
  }

  /** Counts what a cache is asked. */
  static final class CountingCache implements BlockCache {
    final BlockCache inner;
    int hits;
    int puts;
    final List<Key> keys = new ArrayList<>();

    CountingCache(BlockCache inner) {
      this.inner = inner;
    }

    @Override
    public DataBlock get(Key key) {
      DataBlock b = inner.get(key);
      hits += b == null ? 0 : 1;
      return b;
    }

    @Override
    public void put(Key key, DataBlock block) {
      puts++;
      keys.add(key);
      inner.put(key, block);
    }
  }
}
