package org.logbase.index;

import java.util.Arrays;

/**
 * The index order: row key unsigned-lexicographic ascending, then timestamp descending. Sorted
 * segments ({@code org.logbase.sorted}) keep their entries in the same order.
 *
 * <p>Keys are compared in place (array slices) with the vectorized
 * {@link Arrays#compareUnsigned(byte[], int, int, byte[], int, int)} so that searching a packed
 * node allocates nothing.
 */
public final class EntryOrder {

  /** The smallest entry of a key: timestamps sort descending, so the largest timestamp first. */
  public static final long FIRST_TIMESTAMP = Long.MAX_VALUE;

  private EntryOrder() {}

  /** Compares (a[aFrom, aTo), aTs) with (b[bFrom, bTo), bTs) in index order. */
  public static int compare(byte[] a, int aFrom, int aTo, long aTs, byte[] b, int bFrom, int bTo, long bTs) {
    int byKey = Arrays.compareUnsigned(a, aFrom, aTo, b, bFrom, bTo);
    return byKey != 0 ? byKey : Long.compare(bTs, aTs);
  }

  /** Compares (a, aTs) with (b, bTs) in index order. */
  public static int compare(byte[] a, long aTs, byte[] b, long bTs) {
    return compare(a, 0, a.length, aTs, b, 0, b.length, bTs);
  }
}
