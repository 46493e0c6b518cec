package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AutoSplitsTest {
  private static final TabletName A = new TabletName("t", 1);
  private static final TabletName B = new TabletName("t", 2);

  @Test
  void picksTheTabletFurthestPastEitherThreshold() {
    AutoSplits splits = new AutoSplits(1000, 500);
    assertNull(splits.next(Map.of(A, stats(999, 499), B, stats(10, -1))));
    assertEquals(A, splits.next(Map.of(A, stats(1000, 0), B, stats(10, -1))));
    assertEquals(B, splits.next(Map.of(A, stats(1500, 0), B, stats(10, 1000))), "twice the traffic beats 1.5 times the size");
  }

  @Test
  void zeroSwitchesAThresholdOff() {
    AutoSplits sizeOnly = new AutoSplits(1000, 0);
    assertNull(sizeOnly.next(Map.of(A, stats(10, 1e9))));
    AutoSplits off = new AutoSplits(0, 0);
    assertNull(off.next(Map.of(A, stats(Long.MAX_VALUE, 1e9))));
  }

  @Test
  void aRefusedTabletIsAskedAgainOnlyOnceItHasTwiceTheVersions() {
    AutoSplits splits = new AutoSplits(1000, 0);
    assertEquals(A, splits.next(Map.of(A, stats(1200, 0))));
    splits.refused(A, 1200);
    assertNull(splits.next(Map.of(A, stats(2399, 0))));
    assertEquals(A, splits.next(Map.of(A, stats(2400, 0))));

    splits.refused(A, 2400);
    assertNull(splits.next(Map.of(B, stats(0, 0))), "A is gone (split or dropped): forgotten");
    assertEquals(A, splits.next(Map.of(A, stats(1000, 0))), "a tablet of that name again is a new tablet");
  }

  private static ServerLoads.TabletStats stats(long versions, double rps) {
    return new ServerLoads.TabletStats(versions, 0, rps, 0);
  }
}
