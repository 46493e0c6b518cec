package org.logbase.chaos.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.logbase.chaos.check.Histories.a;
import static org.logbase.chaos.check.Histories.fail;
import static org.logbase.chaos.check.Histories.info;
import static org.logbase.chaos.check.Histories.ok;
import static org.logbase.chaos.check.Histories.r;
import static org.logbase.chaos.check.Histories.unknown;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;

class ListAppendCheckerTest {

  /** Checks that exactly the given anomaly type (and no other) was found, and names the transactions. */
  private static Result expectOnly(List<Txn> history, AnomalyType type, Txn... involved) {
    Result result = ListAppendChecker.check(history);
    assertEquals(List.of(type), List.copyOf(result.counts().keySet()), result.summary());
    assertEquals(!type.forbidden(), result.valid(), result.summary());
    Anomaly anomaly = result.anomalies(type).get(0);
    for (Txn t : involved) {
      assertTrue(anomaly.txns().contains(t), "missing " + t + " in " + anomaly);
      assertTrue(anomaly.explanation().contains("T" + t.id()), anomaly.explanation());
    }
    assertTrue(result.summary().contains(type.label() + ": "), result.summary());
    return result;
  }

  @Test
  void cleanConcurrentHistoryIsValid() {
    List<Txn> history = List.of(
        ok(1, 0, 10, a("x", 1), r("x", 1)),
        ok(2, 5, 20, r("y"), a("y", 1), r("y", 1)),
        ok(3, 12, 30, r("x", 1), a("z", 1)),
        info(4, 15, a("x", 2), unknown("z")),         // committed: the final read sees x 2
        ok(5, 22, 40, r("x", 1), r("z")),             // concurrent with 3 and 4: sees neither
        info(6, 25, a("y", 5)),                       // never committed
        fail(7, 26, 28, a("z", 9), r("x", 1)),        // refused: nobody sees z 9
        ok(8, 50, 60, r("x", 1, 2), r("y", 1), r("z", 1)));
    Result result = ListAppendChecker.check(history);
    assertTrue(result.valid(), result.summary());
    assertEquals(0, result.counts().size(), result.summary());
  }

  @Test
  void writeCycleIsG0() {
    Txn t1 = ok(1, 0, 10, a("x", 1), a("y", 2));
    Txn t2 = ok(2, 0, 10, a("x", 3), a("y", 4));
    expectOnly(List.of(t1, t2, ok(3, 20, 30, r("x", 1, 3), r("y", 4, 2))), AnomalyType.G0, t1, t2);
  }

  @Test
  void readOfFailedAppendIsG1a() {
    Txn writer = fail(1, 0, 10, a("x", 1));
    Txn reader = ok(2, 20, 30, r("x", 1));
    expectOnly(List.of(writer, reader), AnomalyType.G1A, writer, reader);
  }

  @Test
  void readOfIntermediateStateIsG1b() {
    Txn writer = ok(1, 0, 10, a("x", 1), a("x", 2));
    Txn reader = ok(2, 0, 20, r("x", 1));
    expectOnly(List.of(writer, reader, ok(3, 30, 40, r("x", 1, 2))), AnomalyType.G1B, writer, reader);
  }

  @Test
  void readCycleIsG1c() {
    Txn t1 = ok(1, 0, 10, a("x", 1), r("y", 2));
    Txn t2 = ok(2, 0, 10, a("y", 2), r("x", 1));
    expectOnly(List.of(t1, t2, ok(3, 20, 30, r("x", 1), r("y", 2))), AnomalyType.G1C, t1, t2);
  }

  @Test
  void readSkewIsGSingle() {
    Txn t1 = ok(1, 0, 20, r("x"), r("y", 2));
    Txn t2 = ok(2, 5, 10, a("x", 1), a("y", 2));
    Result result = expectOnly(List.of(t1, t2, ok(3, 30, 40, r("x", 1), r("y", 2))), AnomalyType.G_SINGLE, t1, t2);
    String explanation = result.anomalies(AnomalyType.G_SINGLE).get(0).explanation();
    assertTrue(explanation.contains("-rw->") && explanation.contains("-wr->"), explanation);
  }

  @Test
  void twoNonAdjacentAntiDependenciesAreGNonadjacent() {
    Txn t1 = ok(1, 0, 100, r("x"), r("w", 4));
    Txn t2 = ok(2, 0, 100, a("x", 1), a("y", 2));
    Txn t3 = ok(3, 0, 100, r("y", 2), r("z"));
    Txn t4 = ok(4, 0, 100, a("z", 3), a("w", 4));
    Txn last = ok(5, 200, 300, r("x", 1), r("y", 2), r("z", 3), r("w", 4));
    expectOnly(List.of(t1, t2, t3, t4, last), AnomalyType.G_NONADJACENT, t1, t2, t3, t4);
  }

  @Test
  void antiDependenciesAdjacentAcrossTheCycleEndAreNotNonadjacent() {
    // a -rw-> b -ww-> c -rw-> a is write skew (its rw edges meet where the cycle closes), but
    // a -rw-> b -wr-> d -rw-> e -wr-> a, through the same start edge, is G-nonadjacent.
    Txn txnA = ok(1, 0, 100, r("x"), a("z", 4), r("u", 7));
    Txn txnB = ok(2, 0, 100, a("x", 1), a("y", 2), a("w", 5));
    Txn txnC = ok(3, 0, 100, a("y", 3), r("z"));
    Txn txnD = ok(4, 0, 100, r("w", 5), r("v"));
    Txn txnE = ok(5, 0, 100, a("v", 6), a("u", 7));
    Txn last = ok(6, 200, 300, r("x", 1), r("y", 2, 3), r("z", 4), r("w", 5), r("v", 6), r("u", 7));
    expectOnly(List.of(txnA, txnB, txnC, txnD, txnE, last), AnomalyType.G_NONADJACENT, txnA, txnB, txnD, txnE);
  }

  @Test
  void writeSkewIsReportedButAllowed() {
    Txn t1 = ok(1, 0, 10, r("x"), a("y", 1));
    Txn t2 = ok(2, 0, 10, r("y"), a("x", 2));
    Result result = expectOnly(List.of(t1, t2, ok(3, 20, 30, r("x", 2), r("y", 1))), AnomalyType.G2_ITEM, t1, t2);
    assertTrue(result.summary().contains("G2-item: 1 (allowed"), result.summary());
  }

  @Test
  void acknowledgedAppendMissingFromTheFinalReadIsLost() {
    Txn lost = ok(1, 0, 10, a("x", 1));
    Txn last = ok(3, 20, 30, r("x", 2));
    Txn unfinished = ok(4, 15, 40, a("x", 3)); // not acknowledged when the final read began: may be missing
    Result result = expectOnly(List.of(lost, ok(2, 5, 15, a("x", 2)), last, unfinished), AnomalyType.LOST_WRITE, lost,
        last);
    assertEquals(1, result.count(AnomalyType.LOST_WRITE), result.summary());
  }

  @Test
  void divergingReadsAreIncompatibleOrders() {
    Txn r12 = ok(4, 20, 30, r("x", 1, 2));
    Txn r13 = ok(5, 20, 30, r("x", 1, 3));
    List<Txn> history = List.of(ok(1, 0, 10, a("x", 1)), ok(2, 0, 10, a("x", 2)), ok(3, 0, 10, a("x", 3)), r12, r13);
    Result result = ListAppendChecker.check(history);
    assertFalse(result.valid(), result.summary());
    assertEquals(1, result.count(AnomalyType.INCOMPATIBLE_ORDER), result.summary());
    Anomaly anomaly = result.anomalies(AnomalyType.INCOMPATIBLE_ORDER).get(0);
    assertTrue(anomaly.txns().containsAll(List.of(r12, r13)), anomaly.toString());
  }

  @Test
  void valueNobodyAppendedIsGarbage() {
    Txn reader = ok(1, 0, 10, r("x", 99));
    expectOnly(List.of(reader, ok(2, 20, 30, r("x", 99))), AnomalyType.GARBAGE_READ, reader);
  }

  @Test
  void staleSnapshotAfterAcknowledgementIsRealtimeGSingle() {
    Txn t1 = ok(1, 0, 10, a("x", 1));
    Txn t2 = ok(2, 5, 15, a("y", 1)); // acknowledged after T1, begun before: T1 must still precede T3
    Txn t3 = ok(3, 20, 30, r("x"));
    List<Txn> history = List.of(t1, t2, t3, ok(4, 40, 50, r("x", 1), r("y", 1)));
    expectOnly(history, AnomalyType.G_SINGLE_REALTIME, t1, t3);
    Result withoutRealtime = ListAppendChecker.check(history, ListAppendChecker.Options.defaults().withRealtime(false));
    assertTrue(withoutRealtime.valid() && withoutRealtime.counts().isEmpty(), withoutRealtime.summary());
  }

  @Test
  void indeterminateTransactionSeenCommittedJoinsTheGraph() {
    Txn reader = ok(1, 0, 20, r("x"), r("y", 2));
    Txn writer = info(2, 5, a("x", 1), a("y", 2), unknown("z"));
    expectOnly(List.of(reader, writer, ok(3, 30, 40, r("x", 1), r("y", 2))), AnomalyType.G_SINGLE, reader, writer);
  }

  @Test
  void reorderedReadIsIncompatibleEvenWhereItsLastValueAgrees() {
    Txn reordered = ok(4, 20, 30, r("x", 2, 1, 3));
    List<Txn> history = List.of(ok(1, 0, 10, a("x", 1)), ok(2, 0, 10, a("x", 2)), ok(3, 0, 10, a("x", 3)), reordered,
        ok(5, 40, 50, r("x", 1, 2, 3)));
    Result result = ListAppendChecker.check(history);
    assertEquals(1, result.count(AnomalyType.INCOMPATIBLE_ORDER), result.summary());
    assertTrue(result.anomalies(AnomalyType.INCOMPATIBLE_ORDER).get(0).txns().contains(reordered));
  }

  @Test
  void readIgnoringOwnAppendIsInternal() {
    Txn t = ok(1, 0, 10, a("x", 1), r("x"));
    expectOnly(List.of(t, ok(2, 20, 30, r("x", 1))), AnomalyType.INTERNAL, t);
  }

  @Test
  void valueListedTwiceIsDuplicate() {
    Txn reader = ok(2, 20, 30, r("x", 1, 1));
    expectOnly(List.of(ok(1, 0, 10, a("x", 1)), reader), AnomalyType.DUPLICATE_ELEMENTS, reader);
  }

  @Test
  void readOwnAppendsYieldNoSelfDependency() {
    // Appending twice to a key and reading in between is the transaction's own state, not G1b.
    List<Txn> history = List.of(
        ok(1, 0, 10, r("x"), a("x", 1), r("x", 1), a("x", 2), r("x", 1, 2)),
        ok(2, 20, 30, r("x", 1, 2), a("x", 3), r("x", 1, 2, 3)),
        ok(3, 40, 50, r("x", 1, 2, 3)));
    Result result = ListAppendChecker.check(history);
    assertTrue(result.valid() && result.counts().isEmpty(), result.summary());
  }

  @Test
  void lostUpdateShowsAsIncompatibleOrderAndGSingle() {
    // Both read x empty and appended; the database kept both although only one may commit.
    Txn t1 = ok(1, 0, 10, r("x"), a("x", 1), r("x", 1));
    Txn t2 = ok(2, 0, 10, r("x"), a("x", 2), r("x", 2));
    Result result = ListAppendChecker.check(List.of(t1, t2, ok(3, 20, 30, r("x", 1, 2))));
    assertFalse(result.valid(), result.summary());
    assertEquals(1, result.count(AnomalyType.INCOMPATIBLE_ORDER), result.summary());
    assertEquals(1, result.count(AnomalyType.G_SINGLE), result.summary());
  }

  @Test
  void witnessSearchStopsAtTheLimitButReportsTheClass() {
    List<Txn> history = new ArrayList<>();
    List<Mop> last = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String x = "x" + i;
      String y = "y" + i;
      history.add(ok(2 * i, 0, 10, a(x, 1), a(y, 2)));
      history.add(ok(2 * i + 1, 0, 10, a(x, 3), a(y, 4)));
      last.add(r(x, 1, 3));
      last.add(r(y, 4, 2));
    }
    history.add(new Txn(99, 99, 20, 30, Outcome.OK, last));
    Result result = ListAppendChecker.check(history, new ListAppendChecker.Options(true, 2, 100, 1_000_000));
    assertEquals(2, result.count(AnomalyType.G0), result.summary());
    assertTrue(result.truncated(AnomalyType.G0), result.summary());
    assertFalse(result.valid());
  }
}
