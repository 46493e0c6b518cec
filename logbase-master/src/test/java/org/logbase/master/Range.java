package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.logbase.rpc.TimestampRange;

/** Timestamps first .. last handed out in one request, and the checks tests make on them. */
record Range(long first, int count) {
  static Range of(TimestampRange r) {
    return new Range(r.getFirst(), r.getCount());
  }

  long last() {
    return first + count - 1;
  }

  /** Each range starts above the end of the one before: one caller's timestamps strictly increase. */
  static void assertIncreasing(List<Range> ranges) {
    for (int i = 1; i < ranges.size(); i++) {
      assertTrue(ranges.get(i).first() > ranges.get(i - 1).last(),
          "range " + ranges.get(i) + " does not follow " + ranges.get(i - 1));
    }
  }

  /** No timestamp was handed out twice, to whichever caller. */
  static void assertDisjoint(Collection<List<Range>> perCaller) {
    List<Range> all = new ArrayList<>(flatten(perCaller));
    all.sort(Comparator.comparingLong(Range::first));
    assertIncreasing(all);
  }

  static long highest(Collection<List<Range>> perCaller) {
    return flatten(perCaller).stream().mapToLong(Range::last).max().orElseThrow();
  }

  static long lowest(Collection<List<Range>> perCaller) {
    return flatten(perCaller).stream().mapToLong(Range::first).min().orElseThrow();
  }

  static List<Range> flatten(Collection<List<Range>> perCaller) {
    return perCaller.stream().flatMap(List::stream).toList();
  }
}
