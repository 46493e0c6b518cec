package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A scan's arrays: reused once given back, the last first, of one size, and no more kept than asked. */
class BlockBuffersTest {

  @Test
  void anArrayGivenBackIsTakenAgainAndOnlySoManyAreKept() {
    BlockBuffers buffers = new BlockBuffers(100, 2);
    byte[] a = buffers.take(100);
    byte[] b = buffers.take(100);
    byte[] c = buffers.take(100);
    assertEquals(100, a.length);
    assertNotSame(a, b);
    buffers.give(a);
    buffers.give(b);
    buffers.give(c); // a third spare is not kept
    assertSame(b, buffers.take(100), "the one given back last");
    assertSame(a, buffers.take(100));
    byte[] fresh = buffers.take(100);
    assertNotSame(c, fresh);
    assertEquals(100, fresh.length);
  }

  @Test
  void anArrayOfAnotherSizeIsNotKept() {
    BlockBuffers buffers = new BlockBuffers(100, 2);
    byte[] decompressed = new byte[99];
    buffers.give(decompressed);
    assertNotSame(decompressed, buffers.take(100));
  }

  @Test
  void aBlockLongerThanTheArraysGetsOneOfItsOwnNeverKept() {
    BlockBuffers buffers = new BlockBuffers(100, 2);
    byte[] big = buffers.take(150);
    assertEquals(150, big.length);
    buffers.give(big);
    assertEquals(100, buffers.take(100).length);
  }

  @Test
  void arraysKeptAreAtMostTheLimitLongWhateverTheLongestBlock() {
    BlockBuffers buffers = new BlockBuffers(8 << 20, 2); // one 8 MiB value filled a block
    assertEquals(BlockBuffers.MAX_SIZE, buffers.size());
    assertEquals(BlockBuffers.MAX_SIZE, buffers.take(65_000).length);
    assertEquals(8 << 20, buffers.take(8 << 20).length);
  }

  @Test
  void clearedBuffersKeepNoSpare() {
    BlockBuffers buffers = new BlockBuffers(100, 2);
    byte[] a = buffers.take(100);
    buffers.give(a);
    buffers.clear();
    assertNotSame(a, buffers.take(100));
  }

  @Test
  void noSparesIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> new BlockBuffers(100, 0));
  }
}
