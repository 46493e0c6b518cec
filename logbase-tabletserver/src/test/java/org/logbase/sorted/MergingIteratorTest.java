package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.logbase.sorted.SortedFixture.drain;
import static org.logbase.sorted.SortedFixture.modelGet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;
import org.logbase.log.LogRecord.Column;

/**
 * An in-memory layer over three sorted segments, merged, reads as the model: scans, seeks, and
 * lookups as of a timestamp; a version in several layers comes from the newest.
 */
class MergingIteratorTest extends LocalFsTest {
  static final int LAYERS = 4;

  final List<SortedSegmentReader> readers = new ArrayList<>();

  @AfterEach
  void closeReaders() throws IOException {
    for (SortedSegmentReader r : readers) {
      r.close();
    }
  }

  /** Splits the model over the layers; some versions also go, with other values, to an older layer. */
  MergingIterator layers(NavigableSet<SortedEntry> model, SortedFixture.Entries random) throws IOException {
    List<List<SortedEntry>> parts = new ArrayList<>();
    for (int i = 0; i < LAYERS; i++) {
      parts.add(new ArrayList<>());
    }
    for (SortedEntry e : model) {
      int layer = random.random.nextInt(LAYERS);
      parts.get(layer).add(e);
      if (layer < LAYERS - 1 && random.random.nextInt(8) == 0) {
        int older = layer + 1 + random.random.nextInt(LAYERS - 1 - layer);
        parts.get(older).add(SortedEntry.data(e.rowKey(), e.timestamp(),
            List.of(new Column("stale", Bytes.utf8("older layer " + older)))));
      }
    }
    List<EntryIterator> its = new ArrayList<>();
    its.add(new ListEntryIterator(parts.get(0)));
    Compression[] compressions = Compression.values();
    for (int i = 1; i < LAYERS; i++) {
      Path file = SortedFixture.path(tmp, "layer" + i + ".lbs");
      SortedFixture.write(fs, file, SegmentOptions.defaults(compressions[i % compressions.length])
          .withBlockBytes(2048), parts.get(i));
      SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none());
      readers.add(r);
      its.add(r.scan());
    }
    return new MergingIterator(its);
  }

  @Test
  void mergedLayersReadAsTheModel() throws IOException {
    long seed = 4242;
    System.out.println("seed " + seed);
    SortedFixture.Entries random = new SortedFixture.Entries(seed);
    NavigableSet<SortedEntry> model = random.rows(600, 5);
    List<SortedEntry> all = List.copyOf(model);
    try (MergingIterator merged = layers(model, random)) {
      assertEquals(all, drain(merged), "a full scan");
      assertThrows(NoSuchElementException.class, merged::next);
      for (int i = 0; i < 300; i++) {
        byte[] key = random.random.nextBoolean() ? random.key() : all.get(random.random.nextInt(all.size())).rowKey();
        long asOf = random.random.nextInt(1_100_000);
        merged.seek(key, asOf);
        SortedEntry expected = model.ceiling(SortedEntry.tombstone(key, asOf));
        assertEquals(expected, merged.hasNext() ? merged.peek() : null, "seek");
        SortedEntry found = merged.hasNext() && Bytes.compare(merged.peek().rowKey(), key) == 0 ? merged.peek() : null;
        assertEquals(modelGet(model, key, asOf), found, "lookup as of " + asOf);
        if (i % 10 == 0 && expected != null) {
          assertEquals(List.copyOf(model.tailSet(expected, true)), drain(merged), "scan after a seek");
        }
      }
    }
  }

  @Test
  void noLayersAndEmptyLayers() throws IOException {
    try (MergingIterator none = new MergingIterator(List.of())) {
      assertEquals(List.of(), drain(none));
    }
    try (MergingIterator empty = new MergingIterator(List.of(new ListEntryIterator(List.of()),
        new ListEntryIterator(List.of(SortedEntry.tombstone(new byte[] {1}, 3)))))) {
      assertEquals(List.of(SortedEntry.tombstone(new byte[] {1}, 3)), drain(empty));
    }
  }
}
