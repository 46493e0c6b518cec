package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.sorted.SortedFixture.drain;
import static org.logbase.sorted.SortedFixture.flipped;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damage is reported as {@link SegmentDamageException} naming the file and offset, and never served:
 * a flipped byte in a (compressed) block, a truncated file, a damaged footer, index, filter or
 * header, an unknown version, a file that is no sorted segment.
 */
class SortedSegmentDamageTest extends LocalFsTest {
  /** A segment of compressible rows in about 20 blocks of 4 KiB. */
  Path writeSegment(Compression compression, NavigableSet<SortedEntry> model) throws IOException {
    Path file = SortedFixture.path(tmp, "good-" + compression + ".lbs");
    SortedFixture.write(fs, file, SegmentOptions.defaults(compression).withBlockBytes(4096), model);
    return file;
  }

  NavigableSet<SortedEntry> model(long seed) {
    System.out.println("seed " + seed);
    return new SortedFixture.Entries(seed).rows(400, 3);
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void aFlippedByteInABlockIsReportedAndNoEntryOfTheBlockIsReturned(Compression compression)
      throws IOException {
    NavigableSet<SortedEntry> model = model(77 + compression.code());
    List<SortedEntry> all = List.copyOf(model);
    Path good = writeSegment(compression, model);
    List<BlockInfo> blocks;
    try (SortedSegmentReader r = SortedFormats.open(fs, good, BlockCache.none())) {
      blocks = r.blocks();
    }
    int damaged = blocks.size() / 2;
    BlockInfo block = blocks.get(damaged);
    assertEquals(compression, block.compression(), "the block is stored with " + compression);
    int firstOfBlock = 0;
    for (int i = 0; i < damaged; i++) {
      firstOfBlock += blocks.get(i).entryCount();
    }
    int afterBlock = firstOfBlock + block.entryCount();
    for (int at : new int[] {0, block.storedLength() / 2, block.storedLength() - 1}) {
      Path bad = flipped(good, block.offset() + at, "bad-" + at + ".lbs");
      CaffeineBlockCache cache = new CaffeineBlockCache(1 << 20);
      try (SortedSegmentReader r = SortedFormats.open(fs, bad, cache)) {
        // A scan returns the blocks before, then stops at the damaged one.
        List<SortedEntry> got = new ArrayList<>();
        EntryIterator it = r.scan();
        SegmentDamageException e = assertThrows(SegmentDamageException.class, () -> {
          while (it.hasNext()) {
            got.add(it.next());
          }
        });
        assertEquals(all.subList(0, firstOfBlock), got, "only the entries of the blocks before");
        assertEquals(block.offset(), e.offset());
        assertTrue(e.getMessage().contains("data block " + damaged) && e.getMessage().contains(bad.toString()),
            e.getMessage());
        assertThrows(SegmentDamageException.class, it::hasNext, "the damage is reported again");
        assertNull(cache.get(new BlockCache.Key(SortedFixture.ID.fileId(), block.offset())), "not cached");

        // Lookups into the damaged block fail; every other block still reads.
        for (int i = 0; i < all.size(); i++) {
          SortedEntry x = all.get(i);
          if (i >= firstOfBlock && i < afterBlock) {
            assertThrows(SegmentDamageException.class, () -> r.get(x.rowKey(), x.timestamp()));
          } else {
            assertEquals(x, r.get(x.rowKey(), x.timestamp()));
          }
        }
        SortedEntry next = all.get(afterBlock);
        it.seek(next.rowKey(), next.timestamp());
        assertEquals(all.subList(afterBlock, all.size()), drain(it), "a seek moves past the damage");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void aTruncatedFileIsReported(Compression compression) throws IOException {
    Path good = writeSegment(compression, model(5));
    byte[] bytes = Files.readAllBytes(SortedFixture.local(good).toPath());
    int n = bytes.length;
    for (int cut : new int[] {0, 3, 8, 20, 36, 37, 1000, n / 2, n - 200, n - TrailerV1.BYTES, n - 9, n - 1}) {
      Path p = SortedFixture.path(tmp, "cut-" + cut + ".lbs");
      Files.write(SortedFixture.local(p).toPath(), Arrays.copyOf(bytes, cut));
      SegmentDamageException e = assertThrows(SegmentDamageException.class,
          () -> SortedFormats.open(fs, p, BlockCache.none()).close(), "cut at " + cut);
      assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
    }
  }

  @Test
  void aDamagedFooterIndexFilterOrHeaderIsReportedWhenOpened() throws IOException {
    Path good = writeSegment(Compression.ZSTD, model(6));
    long n = fs.getFileStatus(good).getLen();
    long footer = n - TrailerV1.BYTES;
    ByteBuffer f = ByteBuffer.wrap(Files.readAllBytes(SortedFixture.local(good).toPath()),
        (int) footer, TrailerV1.BYTES);
    long filterOffset = f.getLong(f.position());
    long indexOffset = f.getLong(f.position() + 16);
    expectDamage(good, footer + 40, footer, "footer fails its CRC32C"); // row count
    expectDamage(good, footer + 4, footer, "footer fails its CRC32C"); // filter offset
    expectDamage(good, n - 12, footer, "footer fails its CRC32C"); // the CRC itself
    expectDamage(good, indexOffset + 3, indexOffset, "block index");
    expectDamage(good, filterOffset + 10, filterOffset, "Bloom filter");
    expectDamage(good, 10, 0, "header fails its CRC32C");
    expectDamage(good, 1, 0, "header has no sorted segment magic");
  }

  void expectDamage(Path good, long flip, long offset, String what) throws IOException {
    Path bad = flipped(good, flip, "flip-" + flip + ".lbs");
    SegmentDamageException e = assertThrows(SegmentDamageException.class,
        () -> SortedFormats.open(fs, bad, BlockCache.none()).close());
    assertEquals(offset, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains(what) && e.getMessage().contains(bad.toString()), e.getMessage());
  }

  @Test
  void anUnknownVersionOrMagicIsReported() throws IOException {
    Path good = writeSegment(Compression.LZ4, model(7));
    long n = fs.getFileStatus(good).getLen();
    Path v2 = SortedFixture.path(tmp, "v2.lbs");
    Files.copy(SortedFixture.local(good).toPath(), SortedFixture.local(v2).toPath());
    try (RandomAccessFile raf = new RandomAccessFile(SortedFixture.local(v2), "rw")) {
      raf.seek(n - 8);
      raf.writeInt(2);
    }
    SegmentDamageException e = assertThrows(SegmentDamageException.class,
        () -> SortedFormats.open(fs, v2, BlockCache.none()).close());
    assertTrue(e.getMessage().contains("unknown sorted segment format version 2 (known: [1])"), e.getMessage());
    expectDamage(good, n - 2, n - 4, "bad magic");
    assertThrows(IllegalArgumentException.class, () -> SortedFormats.forVersion(2));
    assertSame(SortedFormats.current(), SortedFormats.forVersion(1));
    assertEquals(1, SortedFormats.current().version());
  }
}
