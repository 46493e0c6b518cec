package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.sorted.SortedFixture.drain;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;
import org.logbase.log.LogRecord.Column;

/** The writer takes entries in entry order only, and leaves no incomplete file behind. */
class SortedSegmentWriterTest extends LocalFsTest {
  static SortedEntry data(String key, long ts) {
    return SortedEntry.data(Bytes.utf8(key), ts, List.of(new Column("v", Bytes.utf8(key + ts))));
  }

  @Test
  void outOfOrderEntriesAreRefusedAndTheWriterGoesOn() throws IOException {
    Path file = SortedFixture.path(tmp, "order.lbs");
    try (SortedSegmentWriter w = SortedFormats.current().create(fs, file, SortedFixture.ID,
        SegmentOptions.defaults(Compression.LZ4))) {
      w.append(data("b", 20));
      w.append(data("b", 10));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.append(data("a", 30)));
      assertTrue(e.getMessage().contains("does not come after") && e.getMessage().contains(file.toString()),
          e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> w.append(data("b", 15)), "timestamps descend");
      assertThrows(IllegalArgumentException.class, () -> w.append(data("b", 10)), "each version once");
      assertThrows(IllegalArgumentException.class, () -> w.append(SortedEntry.tombstone(Bytes.utf8("b"), 10)));
      w.append(data("b", 5));
      w.append(data("c", 50));
      w.finish();
      assertThrows(IllegalStateException.class, () -> w.append(data("d", 1)));
    }
    try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none())) {
      assertEquals(List.of(data("b", 20), data("b", 10), data("b", 5), data("c", 50)), drain(r.scan()));
      assertEquals(2, r.stats().rowCount());
    }
  }

  @Test
  void unsignedKeyOrder() throws IOException {
    Path file = SortedFixture.path(tmp, "unsigned.lbs");
    List<SortedEntry> entries = List.of(SortedEntry.tombstone(new byte[0], 1),
        SortedEntry.tombstone(new byte[] {0x7F}, 1), SortedEntry.tombstone(new byte[] {(byte) 0x80}, 1),
        SortedEntry.tombstone(new byte[] {(byte) 0xFF}, 1), SortedEntry.tombstone(new byte[] {(byte) 0xFF, 0}, 1));
    SortedFixture.write(fs, file, SegmentOptions.defaults(Compression.NONE).withBlockBytes(1), entries);
    try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none())) {
      assertEquals(entries, drain(r.scan()));
      assertEquals(5, r.blocks().size(), "a block an entry");
    }
  }

  @Test
  void closingAnUnfinishedWriterDeletesTheFile() throws IOException {
    Path file = SortedFixture.path(tmp, "abandoned.lbs");
    try (SortedSegmentWriter w = SortedFormats.current().create(fs, file, SortedFixture.ID,
        SegmentOptions.defaults(Compression.ZSTD).withBlockBytes(64))) {
      for (int i = 0; i < 100; i++) {
        w.append(data(String.format("k%03d", i), 1));
      }
      assertTrue(fs.exists(SortedFormats.temporary(file)), "written under its temporary name");
      assertFalse(fs.exists(file), "not under its own name before it is finished");
    }
    assertFalse(fs.exists(file));
    assertFalse(fs.exists(SortedFormats.temporary(file)));
  }

  @Test
  void anExistingFileIsNotOverwritten() throws IOException {
    Path file = SortedFixture.path(tmp, "exists.lbs");
    SortedFixture.write(fs, file, SegmentOptions.defaults(Compression.NONE), List.of(data("a", 1)));
    assertThrows(IOException.class, () -> SortedFormats.current().create(fs, file, SortedFixture.ID,
        SegmentOptions.defaults(Compression.NONE)));
    try (SortedSegmentReader r = SortedFormats.open(fs, file, BlockCache.none())) {
      assertEquals(List.of(data("a", 1)), drain(r.scan()));
    }
  }
}
