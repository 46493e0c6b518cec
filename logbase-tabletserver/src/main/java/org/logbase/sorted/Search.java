package org.logbase.sorted;

import java.util.function.IntPredicate;

/** Binary search over positions {@code 0..size-1} that are ordered. */
final class Search {
  private Search() {}

  /**
   * The first position {@code i} for which {@code before(i)} is false, {@code size} if there is
   * none; {@code before} must be true for a prefix of the positions and false after it.
   */
  static int firstNotBefore(int size, IntPredicate before) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (before.test(mid)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
