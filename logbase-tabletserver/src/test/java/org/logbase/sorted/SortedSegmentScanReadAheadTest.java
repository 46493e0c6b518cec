package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.sorted.SortedFixture.drain;
import static org.logbase.sorted.SortedFixture.modelRange;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.logbase.testing.Await;

/**
 * Every scan test again with read-ahead on (two blocks ahead, one scan at a time), and what
 * read-ahead adds: it reads no block past the last one its range can reach; a seek waits until the
 * read-ahead has let go of the stream (never two readers of one stream); a seek to the block after
 * a damaged one, right after the damage was reported, reads on; seeks back and forth
 * and early closes, at random, leave every entry returned in order and every stream given back; a
 * second scan that finds the read-ahead thread busy reads for itself and returns the same.
 */
class SortedSegmentScanReadAheadTest extends SortedSegmentScanTest {
  private ReadAhead readAhead;

  @BeforeEach
  void startReadAhead() {
    readAhead = ReadAhead.of(2, 1);
  }

  @AfterEach
  void stopReadAhead() {
    readAhead.close();
  }

  @Override
  ReadAhead readAhead() {
    return readAhead;
  }

  /**
   * An uncompressed block's entries are decoded from the array it was read into, while the
   * read-ahead reads the next blocks into other arrays: after the first entry of each block the
   * test waits until the read-ahead has read as far ahead as it may, and then reads the block's
   * other entries. A scan that gave a block's array back before it was done with it would find them
   * overwritten.
   */
  @Test
  void theReadAheadReadsOnWithoutTouchingTheBlockTheScanReads() throws IOException {
    Path plain = SortedFixture.path(tmp, "plain.lbs");
    SortedFixture.write(fs, plain, SegmentOptions.defaults(Compression.NONE).withBlockBytes(4096), model);
    List<SortedEntry> got = new ArrayList<>();
    try (SortedSegmentReader r = open(counting, plain, BlockCache.none())) {
      List<BlockInfo> blocks = r.blocks();
      int depth = readAhead.depth();
      try (EntryIterator it = r.scan()) {
        for (int b = 0; b < blocks.size(); b++) {
          for (int k = 0; k < blocks.get(b).entryCount(); k++) {
            got.add(it.next());
            if (k == 0 && b >= ScanBlocks.POSITIONED_BLOCKS) {
              int through = Math.min(b + depth, blocks.size() - 1);
              long bytes = blocks.stream().limit(through + 1).skip(ScanBlocks.POSITIONED_BLOCKS)
                  .mapToLong(BlockInfo::storedLength).sum();
              Await.until("the read-ahead read through block " + through,
                  () -> counting.sequentialBytes() >= bytes);
            }
          }
        }
        assertFalse(it.hasNext());
      }
    }
    assertEquals(all, got);
  }

  @Test
  void aRangeScanReadsNoBlockPastItsEnd() throws IOException {
    try (SortedSegmentReader r = open(counting, file, BlockCache.none())) {
      List<BlockInfo> blocks = r.blocks();
      int endBlock = blocks.size() / 2;
      int firstOfEnd = blocks.stream().limit(endBlock).mapToInt(BlockInfo::entryCount).sum();
      byte[] end = all.get(firstOfEnd + 1).rowKey();
      try (EntryIterator it = r.scan(null, end)) {
        assertEquals(modelRange(model, null, end), drain(it));
      }
      long reachable = blocks.stream().limit(endBlock + 1).skip(ScanBlocks.POSITIONED_BLOCKS)
          .mapToLong(BlockInfo::storedLength).sum();
      assertEquals(reachable, counting.sequentialBytes(),
          "the blocks up to the one holding the end, each once, and none after");
    }
  }

  @Test
  void seeksAndEarlyClosesAtRandomReturnEveryEntryInOrder() throws IOException {
    SplittableRandom rng = new SplittableRandom(7);
    try (SortedSegmentReader r = open(counting, file, BlockCache.none())) {
      for (int round = 0; round < 60; round++) {
        scanAtRandom(r, rng, round, 50, 200, true, 0);
        assertEquals(0, counting.holding(), "round " + round + ": the stream is given back");
      }
    }
    assertEquals(0, counting.open());
  }

  @Test
  void aSeekWaitsForTheReadAheadToLetGoOfTheStream() throws Exception {
    try (SortedSegmentReader r = open(counting, file, BlockCache.none());
        EntryIterator it = r.scan()) {
      counting.hold("scan-read-ahead");
      int streamed = r.blocks().stream().limit(ScanBlocks.POSITIONED_BLOCKS + 1).mapToInt(BlockInfo::entryCount).sum();
      for (int i = 0; i < streamed; i++) { // the last of these blocks is the scan's own first stream read
        assertEquals(all.get(i), it.next());
      }
      assertTrue(counting.awaitHeld(30_000), "the read-ahead is inside a read of the next block");
      int to = all.size() - 5;
      CompletableFuture<SortedEntry> seek = CompletableFuture.supplyAsync(() -> {
        try {
          it.seek(all.get(to).rowKey(), all.get(to).timestamp());
          return it.next();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      // A seek that did not wait for the read-ahead would use the stream now: give it a moment to.
      assertFalse(counting.awaitOverlap(500), "the seek used the stream while the read-ahead read it");
      assertFalse(seek.isDone(), "the seek waits for the read-ahead's read");
      counting.release();
      assertEquals(all.get(to), seek.get(30, TimeUnit.SECONDS));
      assertEquals(all.subList(to + 1, all.size()), drain(it));
      assertEquals(0, counting.overlaps());
    }
  }

  @Test
  void aSeekPastDamageRightAfterTheErrorReadsOn() throws IOException {
    List<BlockInfo> blocks;
    try (SortedSegmentReader r = open(fs, file, BlockCache.none())) {
      blocks = r.blocks();
    }
    int damaged = blocks.size() / 2;
    BlockInfo block = blocks.get(damaged);
    int after = blocks.stream().limit(damaged + 1).mapToInt(BlockInfo::entryCount).sum();
    Path bad = SortedFixture.flipped(file, block.offset() + block.storedLength() / 3, "bad-next.lbs");
    try (SortedSegmentReader r = open(counting, bad, BlockCache.none());
        EntryIterator it = r.scan()) {
      assertThrows(SegmentDamageException.class, () -> {
        while (it.hasNext()) {
          it.next();
        }
      });
      // The block right after the damaged one: the one the read-ahead would have read next.
      it.seek(all.get(after).rowKey(), all.get(after).timestamp());
      assertEquals(all.subList(after, all.size()), drain(it), "a seek moves past the damage");
    }
    assertEquals(0, counting.holding());
  }

  /**
   * A scan that stops taking entries (its client is slow) has its read-ahead let go of the one
   * thread after the idle time; another scan then reads ahead with it, and the first reads every
   * entry in order when it goes on. With the thread kept, the first await fails.
   */
  @Test
  void aScanThatTakesNothingLetsGoOfItsThreadAndReadsOnLater() throws Exception {
    try (ReadAhead shortIdle = ReadAhead.of(2, 1, 50);
        SortedSegmentReader r = SortedFormats.open(counting, file, BlockCache.none(), shortIdle)) {
      List<SortedEntry> slow = new ArrayList<>();
      try (EntryIterator first = r.scan()) {
        int streamed = r.blocks().stream().limit(ScanBlocks.POSITIONED_BLOCKS + 1).mapToInt(BlockInfo::entryCount).sum();
        for (int i = 0; i < streamed + 1; i++) { // into the first block read ahead
          slow.add(first.next());
        }
        Await.until("the read-ahead of a scan that takes nothing lets go of its thread", () -> shortIdle.busy() == 0);

        counting.hold("scan-read-ahead");
        CompletableFuture<List<SortedEntry>> other = CompletableFuture.supplyAsync(() -> {
          try (EntryIterator second = r.scan()) {
            return drain(second);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        assertTrue(counting.awaitHeld(30_000), "the other scan reads ahead, on the thread the first let go of");
        counting.release();
        assertEquals(all, other.get(30, TimeUnit.SECONDS));

        while (first.hasNext()) {
          slow.add(first.next());
        }
      }
      assertEquals(all, slow, "the first scan read on where it stopped");
      long streamed = r.blocks().stream().skip(ScanBlocks.POSITIONED_BLOCKS).mapToLong(BlockInfo::storedLength).sum();
      assertEquals(2 * streamed, counting.sequentialBytes(),
          "each scan read each block once: the first kept what its read-ahead had read before it let go");
    }
    assertEquals(0, counting.holding());
    assertEquals(0, counting.overlaps(), "never two readers of one stream");
  }

  /**
   * Two readers at once, each seeking, closing early and pausing at random, over uncompressed blocks
   * (decoded from the arrays the scans reuse), with two read-ahead threads that let go after 1 ms
   * without a take: read-aheads end and start again all the time, under seeks and closes. Every
   * scan returns the entries it should, in order, and gives its stream back.
   */
  @Test
  void readersThatPauseSeekAndCloseAtRandomWithImpatientReadAheadGetEveryEntryInOrder() throws Exception {
    Path plain = SortedFixture.path(tmp, "plain.lbs");
    SortedFixture.write(fs, plain, SegmentOptions.defaults(Compression.NONE).withBlockBytes(4096), model);
    try (ReadAhead impatient = ReadAhead.of(2, 2, 1);
        SortedSegmentReader r = SortedFormats.open(counting, plain, BlockCache.none(), impatient)) {
      List<CompletableFuture<Void>> readers = new ArrayList<>();
      for (int reader = 0; reader < 2; reader++) {
        long seed = 100 + reader;
        readers.add(CompletableFuture.runAsync(() -> {
          try {
            readAtRandom(r, new SplittableRandom(seed), 25);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
      }
      for (CompletableFuture<Void> f : readers) {
        f.get(120, TimeUnit.SECONDS);
      }
    }
    assertEquals(0, counting.holding());
    assertEquals(0, counting.overlaps(), "never two readers of one stream");
  }

  private void readAtRandom(SortedSegmentReader r, SplittableRandom rng, int rounds) throws IOException {
    for (int round = 0; round < rounds; round++) {
      scanAtRandom(r, rng, round, 100, 100, false, 200);
    }
  }

  /**
   * One scan from a random entry, read a random way on, checked against the entries: now and then
   * (1 in {@code seekOdds} entries) it seeks forward by up to {@code seekForward} entries, or, if
   * {@code seeksBack}, as often back to the entry just returned; 1 in {@code pauseOdds} entries it
   * pauses 2 to 4 ms, as a slow client (0: never).
   */
  private void scanAtRandom(SortedSegmentReader r, SplittableRandom rng, int round, int seekOdds, int seekForward,
      boolean seeksBack, int pauseOdds) throws IOException {
    int at = rng.nextInt(all.size());
    List<SortedEntry> got = new ArrayList<>();
    try (EntryIterator it = r.scan()) {
      it.seek(all.get(at).rowKey(), all.get(at).timestamp());
      int want = rng.nextInt(all.size() - at + 1);
      for (int i = 0; i < want && it.hasNext(); i++) {
        got.add(it.next());
        if (pauseOdds > 0 && rng.nextInt(pauseOdds) == 0) { // the read-ahead lets go meanwhile
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2 + rng.nextInt(3)));
        }
        if (rng.nextInt(seekOdds) == 0) {
          int to = seeksBack && rng.nextBoolean() ? at + i
              : Math.min(all.size() - 1, at + i + 1 + rng.nextInt(seekForward));
          it.seek(all.get(to).rowKey(), all.get(to).timestamp());
          got.clear();
          at = to;
          i = -1;
        }
      }
      assertEquals(all.subList(at, at + got.size()), got, "round " + round + " from entry " + at);
    }
  }

  @Test
  void aScanThatFindsTheThreadBusyReadsForItself() throws IOException {
    try (SortedSegmentReader r = open(counting, file, BlockCache.none());
        EntryIterator first = r.scan();
        EntryIterator second = r.scan()) {
      List<SortedEntry> a = new ArrayList<>();
      List<SortedEntry> b = new ArrayList<>();
      while (first.hasNext() | second.hasNext()) { // both, interleaved
        if (first.hasNext()) {
          a.add(first.next());
        }
        if (second.hasNext()) {
          b.add(second.next());
        }
      }
      assertEquals(all, a);
      assertEquals(all, b);
      assertTrue(counting.opened() >= 3, "each scan read through a stream of its own");
    }
  }
}
