package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.sorted.SortedFixture.drain;
import static org.logbase.sorted.SortedFixture.flipped;
import static org.logbase.sorted.SortedFixture.modelRange;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.logbase.common.Bytes;

/**
 * Scans read a segment's blocks through a stream of their own, in file order, after the first
 * {@link ScanBlocks#POSITIONED_BLOCKS} positioned reads; they give it back to the reader, released
 * (unbuffered), when they reach their end or are closed, and the next scan reuses it; closing the
 * reader closes every stream; point reads open no stream; scans take cached blocks but add none;
 * damage met by the stream is reported as any other. Without read-ahead here; {@link
 * SortedSegmentScanReadAheadTest} runs the same with it.
 */
class SortedSegmentScanTest extends LocalFsTest {
  StreamCountingFileSystem counting;
  Path file;
  NavigableSet<SortedEntry> model;
  List<SortedEntry> all;

  /** The read-ahead the readers of these tests scan with. */
  ReadAhead readAhead() {
    return ReadAhead.none();
  }

  SortedSegmentReader open(FileSystem on, Path p, BlockCache cache) throws IOException {
    return SortedFormats.open(on, p, cache, readAhead());
  }

  @BeforeEach
  void writeSegment() throws IOException {
    counting = new StreamCountingFileSystem(fs, ".lbs");
    model = new SortedFixture.Entries(31).rows(800, 4);
    all = List.copyOf(model);
    file = SortedFixture.path(tmp, "scan.lbs");
    SortedFixture.write(fs, file, SegmentOptions.defaults(Compression.LZ4).withBlockBytes(4096), model);
  }

  @Test
  void aScanAcrossManyBlocksReadsThemInOneStreamAndEqualsGetByGet() throws IOException {
    SortedSegmentReader r = open(counting, file, BlockCache.none());
    try {
      List<BlockInfo> blocks = r.blocks();
      assertTrue(blocks.size() > 20, "many blocks: " + blocks.size());
      long positioned = counting.positionedReads();
      assertEquals(1, counting.opened(), "the reader's own stream");

      List<SortedEntry> scanned = drain(r.scan());

      assertEquals(all, scanned, "the scan returns every entry in order");
      assertEquals(2, counting.opened(), "one stream for the scan");
      assertEquals(ScanBlocks.POSITIONED_BLOCKS, counting.positionedReads() - positioned,
          "positioned reads of the first blocks only");
      long streamed = blocks.stream().skip(ScanBlocks.POSITIONED_BLOCKS).mapToLong(BlockInfo::storedLength).sum();
      assertEquals(streamed, counting.sequentialBytes(), "the other blocks read once each through the stream");
      assertEquals(0, counting.holding(), "the scan gave its stream back, released, at its end");

      List<SortedEntry> gotOneByOne = new ArrayList<>();
      for (SortedEntry e : all) {
        gotOneByOne.add(r.get(e.rowKey(), e.timestamp()));
      }
      assertEquals(scanned, gotOneByOne, "get by get reads what the scan read");
      for (SortedEntry e : all) {
        try (EntryIterator row = r.row(e.rowKey(), e.timestamp())) {
          assertEquals(e, row.next(), "a row read starts at the version asked for");
          assertTrue(!row.hasNext() || Arrays.equals(row.peek().rowKey(), e.rowKey()), "and stays in the row");
        }
      }
      assertEquals(2, counting.opened(), "point reads open no stream");
      assertEquals(streamed, counting.sequentialBytes());

      assertEquals(all, drain(r.scan()));
      assertEquals(2, counting.opened(), "the next scan reuses the stream");
      assertEquals(2 * streamed, counting.sequentialBytes());
    } finally {
      r.close();
    }
    assertEquals(0, counting.open(), "closing the reader closed the scans' stream");
  }

  /**
   * Uncompressed blocks are decoded straight from the arrays the scan reads them into, and the scan
   * reads later blocks into the same arrays: every entry it returned must still hold its own bytes
   * when the scan is over (all entries are compared only after the last block was read).
   */
  @Test
  void entriesOfUncompressedBlocksStayIntactWhileTheScanReusesTheirArrays() throws IOException {
    Path plain = SortedFixture.path(tmp, "plain.lbs");
    SortedFixture.write(fs, plain, SegmentOptions.defaults(Compression.NONE).withBlockBytes(4096), model);
    try (SortedSegmentReader r = open(fs, plain, BlockCache.none())) {
      assertTrue(r.blocks().size() > 20, "many blocks: " + r.blocks().size());
      assertTrue(r.blocks().stream().allMatch(b -> b.compression() == Compression.NONE), "stored raw");
      for (int pass = 0; pass < 3; pass++) {
        assertEquals(all, drain(r.scan()), "pass " + pass);
      }
      int mid = all.size() / 2;
      try (EntryIterator it = r.scan()) {
        it.seek(all.get(mid).rowKey(), all.get(mid).timestamp());
        assertEquals(all.subList(mid, all.size()), drain(it), "after a seek");
      }
    }
  }

  @Test
  void aScanStoppedEarlyClosesItsStreamAndAShortScanOpensNone() throws IOException {
    try (SortedSegmentReader r = open(counting, file, BlockCache.none())) {
      List<BlockInfo> blocks = r.blocks();
      int inFirstFive = blocks.stream().limit(5).mapToInt(BlockInfo::entryCount).sum();
      try (EntryIterator it = r.scan()) {
        for (int i = 0; i < inFirstFive; i++) {
          assertEquals(all.get(i), it.next());
        }
        assertEquals(1, counting.holding(), "the scan's stream reads");
      }
      assertEquals(0, counting.holding(), "closing the scan released its stream");
      try (EntryIterator it = r.scan()) {
        assertEquals(all, drain(it));
      }
      assertEquals(2, counting.opened(), "the next scan took the stream given back");

      // A range inside block 5: rows that start and end there.
      int first = blocks.stream().limit(5).mapToInt(BlockInfo::entryCount).sum();
      int last = first + blocks.get(5).entryCount() - 1;
      while (Arrays.equals(all.get(first).rowKey(), all.get(first - 1).rowKey())) {
        first++;
      }
      byte[] start = all.get(first).rowKey();
      byte[] end = all.get(last).rowKey();
      assertTrue(Bytes.compare(start, end) < 0, "block 5 holds more than one row");
      int opened = counting.opened();
      try (EntryIterator it = r.scan(start, end)) {
        assertEquals(modelRange(model, start, end), drain(it));
      }
      assertEquals(opened, counting.opened(), "a scan of one block opens no stream");
    }
  }

  @Test
  void scansTakeCachedBlocksButAddNone() throws IOException {
    SortedSegmentRoundTripTest.CountingCache cache =
        new SortedSegmentRoundTripTest.CountingCache(new CaffeineBlockCache(1 << 20));
    try (SortedSegmentReader r = open(counting, file, cache)) {
      int blocks = r.blocks().size();
      assertEquals(all, drain(r.scan()));
      assertEquals(0, cache.puts, "a scan adds no block to the cache");
      for (SortedEntry e : all) {
        assertEquals(e, r.get(e.rowKey(), e.timestamp()));
      }
      assertEquals(blocks, cache.puts, "gets cache each block they read");
      long positioned = counting.positionedReads();
      long sequential = counting.sequentialBytes();
      int hits = cache.hits;
      assertEquals(all, drain(r.scan()));
      assertEquals(blocks, cache.hits - hits, "a scan takes every block from the cache");
      assertEquals(positioned, counting.positionedReads(), "and reads none");
      assertEquals(sequential, counting.sequentialBytes());
    }
  }

  @Test
  void damageMetByAStreamedScanIsReportedAndNeverServed() throws IOException {
    List<BlockInfo> blocks;
    try (SortedSegmentReader r = open(fs, file, BlockCache.none())) {
      blocks = r.blocks();
    }
    int damaged = blocks.size() / 2;
    assertTrue(damaged > ScanBlocks.POSITIONED_BLOCKS + 2, "the damaged block is read through the stream");
    BlockInfo block = blocks.get(damaged);
    int before = blocks.stream().limit(damaged).mapToInt(BlockInfo::entryCount).sum();
    Path bad = flipped(file, block.offset() + block.storedLength() / 3, "bad.lbs");
    try (SortedSegmentReader r = open(counting, bad, BlockCache.none())) {
      List<SortedEntry> got = new ArrayList<>();
      try (EntryIterator it = r.scan()) {
        SegmentDamageException e = assertThrows(SegmentDamageException.class, () -> {
          while (it.hasNext()) {
            got.add(it.next());
          }
        });
        assertEquals(all.subList(0, before), got, "only the entries of the blocks before");
        assertEquals(block.offset(), e.offset());
        assertTrue(e.getMessage().contains("data block " + damaged) && e.getMessage().contains("fails its CRC32C")
            && e.getMessage().contains(bad.toString()), e.getMessage());
        assertTrue(counting.sequentialBytes() > 0, "read through the stream");
        assertThrows(SegmentDamageException.class, it::hasNext, "the damage is reported again");
        int after = before + block.entryCount();
        it.seek(all.get(after).rowKey(), all.get(after).timestamp());
        assertEquals(all.subList(after, all.size()), drain(it), "a seek moves past the damage");
      }
      assertEquals(0, counting.holding(), "the scan's stream is released");
    }
    assertEquals(0, counting.open(), "and closed with the reader");
  }
}
