package org.logbase.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The arrays scans read blocks into: powers of two at least the block's length, reused once given
 * back (the last given first), no more bytes kept idle than the capacity, and none of another length.
 */
class BlockArraysTest {

  @Test
  void aBlockTakesTheSmallestPowerOfTwoThatHoldsIt() {
    BlockArrays arrays = new BlockArrays(1 << 20);
    assertEquals(BlockArrays.MIN_SIZE, arrays.take(1).length);
    assertEquals(BlockArrays.MIN_SIZE, arrays.take(BlockArrays.MIN_SIZE).length);
    assertEquals(2 * BlockArrays.MIN_SIZE, arrays.take(BlockArrays.MIN_SIZE + 1).length);
    assertEquals(64 << 10, arrays.take(65_406).length);
    assertEquals(128 << 10, arrays.take(65_537).length);
    assertEquals(BlockArrays.MAX_SIZE, arrays.take(BlockArrays.MAX_SIZE).length);
    assertEquals(BlockArrays.MAX_SIZE + 1, arrays.take(BlockArrays.MAX_SIZE + 1).length, "a longer one: its own length");
  }

  @Test
  void anArrayGivenBackIsTakenAgainTheLastFirst() {
    BlockArrays arrays = new BlockArrays(1 << 20);
    byte[] a = arrays.take(60_000);
    byte[] b = arrays.take(60_000);
    assertNotSame(a, b);
    arrays.give(a);
    arrays.give(b);
    assertEquals(2L * a.length, arrays.idleBytes());
    assertSame(b, arrays.take(65_536), "the one given back last");
    assertSame(a, arrays.take(40_000), "any length its size holds");
    assertEquals(0, arrays.idleBytes());
    byte[] small = arrays.take(100);
    arrays.give(small);
    assertNotSame(small, arrays.take(60_000), "another size's arrays are apart");
    assertSame(small, arrays.take(5));
  }

  @Test
  void noMoreThanTheCapacityIsKeptIdle() {
    BlockArrays arrays = new BlockArrays(100_000);
    byte[] a = arrays.take(65_536);
    byte[] b = arrays.take(65_536);
    arrays.give(a);
    arrays.give(b); // past the capacity: left to the collector
    assertEquals(65_536, arrays.idleBytes());
    assertSame(a, arrays.take(65_536));
    assertNotSame(b, arrays.take(65_536));

    BlockArrays none = new BlockArrays(0);
    byte[] c = none.take(10);
    none.give(c);
    assertNotSame(c, none.take(10), "capacity 0 keeps none");
  }

  @Test
  void anArrayOfAnotherLengthIsNotKept() {
    BlockArrays arrays = new BlockArrays(1 << 22);
    arrays.give(new byte[65_000]); // a decompressed block
    arrays.give(new byte[BlockArrays.MIN_SIZE / 2]);
    byte[] big = arrays.take(2 * BlockArrays.MAX_SIZE);
    arrays.give(big);
    assertEquals(0, arrays.idleBytes());
    assertNotSame(big, arrays.take(2 * BlockArrays.MAX_SIZE));
  }

  @Test
  void aNegativeCapacityIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new BlockArrays(-1));
  }
}
