package org.logbase.sorted;

import java.util.ArrayList;
import java.util.List;
import org.logbase.common.Loan;

/**
 * The data blocks a row scan's rows point into. A scan of a sorted segment made with one ({@link
 * SortedSegmentReader#scan(byte[], byte[], BlockLoans)}) hands out its entries' values as views of
 * the blocks it read ({@link org.logbase.log.LogRecord.Column#view}) instead of copying each into
 * an array of its own, and when it moves past a block it read into an array of its {@link
 * BlockArrays}, it leaves the block here instead of reading the next one into it. {@link #release}
 * ends their loans (a view read after that fails) and gives the arrays back, to be read into again:
 * the caller's rows are then no longer read (sent, or copied). {@link #forget} lets go of them
 * without either: the views stay readable, and the arrays are left to the collector, what a closed
 * scan does, as a row it returned may still be read on another thread (a call being cancelled).
 * At most {@link #MAX_HELD} blocks are held; another is not reused (left to the collector, its
 * views readable for as long as they live), so a caller that never releases keeps nothing alive
 * through this but what its rows view. Blocks from the block cache or read with positioned reads
 * are never reused: views of them never end. One per row scan; not thread-safe (its scan's thread).
 */
public final class BlockLoans {
  /** Blocks held for reuse at most: 4 MiB of 64 KiB blocks, more than a 500-row page of 1 KiB rows needs. */
  static final int MAX_HELD = 64;

  private final List<Held> held = new ArrayList<>();

  private record Held(BlockArrays arrays, byte[] array, Loan loan) {}

  /** Takes {@code block}, lent by a scan whose iterator moved past it, until {@link #release}. */
  void hold(BlockArrays arrays, DataBlock block) {
    if (held.size() < MAX_HELD) {
      held.add(new Held(arrays, block.array(), block.loan()));
    }
  }

  /** The rows are read no more: every view of a held block fails from now on, and its array is reused. */
  public void release() {
    for (Held h : held) {
      h.loan.end();
      h.arrays.give(h.array);
    }
    held.clear();
  }

  /** Lets go of the held blocks without ending their loans: their views stay readable, their arrays are not reused. */
  public void forget() {
    held.clear();
  }

  /** Blocks held now. */
  int held() {
    return held.size();
  }
}
