package org.logbase.chaos.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;

class GeneratedHistoryTest {
  private static final int TXNS = 200_000;
  private static final int KEYS = 1_000;

  @Test
  void largeSerialHistoryIsValidAndATamperedReadIsNot() {
    List<Txn> history = Histories.serial(42, TXNS, KEYS);
    assertEquals(TXNS + 1, history.size());

    long start = System.nanoTime();
    Result result = ListAppendChecker.check(history);
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.println("checked " + history.size() + " transactions in " + millis + " ms: " + result.summary());
    assertTrue(result.valid(), result.summary());
    assertTrue(result.counts().isEmpty(), result.summary());
    assertTrue(millis < 10_000, "took " + millis + " ms");

    List<Txn> tampered = new ArrayList<>(history);
    int t = tamperedIndex(history);
    tampered.set(t, dropMiddleValue(history.get(t)));
    Result broken = ListAppendChecker.check(tampered);
    System.out.println("tampered T" + history.get(t).id() + ": " + broken.summary());
    assertFalse(broken.valid(), broken.summary());
    assertTrue(broken.count(AnomalyType.INCOMPATIBLE_ORDER) >= 1, broken.summary());
  }

  @Test
  void snapshotIsolationHistoryHasWriteSkewButNothingForbidden() {
    // Few keys and long transactions: many concurrent read-write conflicts, all of them allowed.
    List<Txn> history = Histories.snapshotIsolation(7, 20_000, 20);
    Result result = ListAppendChecker.check(history);
    assertTrue(result.valid(), result.summary());
    assertTrue(result.count(AnomalyType.G2_ITEM) > 0, result.summary());
    assertTrue(history.stream().anyMatch(t -> t.outcome() == Outcome.FAIL), "first committer wins refused some");
  }

  /** A committed transaction in the middle of the run that read a list of at least three values. */
  private static int tamperedIndex(List<Txn> history) {
    for (int i = history.size() / 2; i < history.size() - 1; i++) {
      Txn t = history.get(i);
      if (t.outcome() == Outcome.OK && t.mops().stream().anyMatch(m -> !m.isAppend() && m.list().size() >= 3)) {
        return i;
      }
    }
    throw new AssertionError("no read of three values");
  }

  private static Txn dropMiddleValue(Txn t) {
    List<Mop> mops = new ArrayList<>(t.mops());
    for (int i = 0; i < mops.size(); i++) {
      Mop m = mops.get(i);
      if (!m.isAppend() && m.list().size() >= 3) {
        List<Long> list = new ArrayList<>(m.list());
        list.remove(list.size() / 2);
        mops.set(i, Mop.read(m.key(), list));
        break;
      }
    }
    return new Txn(t.id(), t.process(), t.invokeNanos(), t.completeNanos(), t.outcome(), mops);
  }
}
