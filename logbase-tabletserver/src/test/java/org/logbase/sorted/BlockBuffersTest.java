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
    byte[] a = buffers.take();
    byte[] b = buffers.take();
    byte[] c = buffers.take();
    assertEquals(100, a.length);
    assertNotSame(a, b);
    buffers.give(a);
    buffers.give(b);
    buffers.give(c); // a third spare is not kept
    assertSame(b, buffers.take(), "the one given back last");
    assertSame(a, buffers.take());
    byte[] fresh = buffers.take();
    assertNotSame(c, fresh);
    assertEquals(100, fresh.length);
  }

  @Test
  void anArrayOfAnotherSizeIsNotKept() {
    BlockBuffers buffers = new BlockBuffers(100, 2);
    byte[] decompressed = new byte[99];
    buffers.give(decompressed);
    assertNotSame(decompressed, buffers.take());
  }

  @Test
  void noSparesIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> new BlockBuffers(100, 0));
  }
}
