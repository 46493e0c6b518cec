package org.logbase.common;

import java.util.Arrays;

/**
 * Memory a reader lends out, readable until the reader takes it back to reuse it ({@link #end}).
 * A tablet server's scans lend the data blocks they read: the values of the rows they return are
 * views of those blocks ({@link Cell#view}), and a block goes back to be read into again only once
 * its loan has ended. A view checks its loan every time it is read, so a value read after its
 * memory went back fails with {@link IllegalStateException} instead of showing the bytes of
 * another block. Thread-safe.
 */
public final class Loan {
  private volatile boolean ended;

  /** The lender takes the memory back: views of it may no longer be read. */
  public void end() {
    ended = true;
  }

  public boolean ended() {
    return ended;
  }

  /**
   * Throws unless {@code loan} is null (memory nobody reuses) or still running.
   *
   * @throws IllegalStateException if it has ended
   */
  public static void check(Loan loan) {
    if (loan != null && loan.ended) {
      throw new IllegalStateException("a scanned value was read after its scan took back the block it points into:"
          + " a scan's rows may be read until its release (copy a row with Row.owned() to keep it longer)");
    }
  }

  /** {@code array[offset, offset + length)} copied, the loan checked after the copy (a reuse during it fails too). */
  public static byte[] copy(byte[] array, int offset, int length, Loan loan) {
    check(loan);
    byte[] v = Arrays.copyOfRange(array, offset, offset + length);
    check(loan);
    return v;
  }
}
