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

import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.chaos.history.HistoryFormat;
import org.logbase.chaos.history.Txn;

class HistoryFormatTest {
  @Test
  void formatThenParseGivesTheSameTransactions() {
    List<Txn> history = List.of(
        ok(1, 0, 10, a("x", 1), r("x", 1), r("y")),
        fail(2, 3, 7, a("y", -5), r("x", 1, 2, 3)),
        info(3, 4, a("z", 9), unknown("x")),
        ok(4, 20, 30));
    for (Txn t : history) {
      String line = HistoryFormat.format(t);
      assertTrue(HistoryFormat.isTxn(line), line);
      assertEquals(t, HistoryFormat.parse(line), line);
    }
    assertEquals("T 3 3 4 -1 INFO a:z:9 r:x:?", HistoryFormat.format(history.get(2)));
    assertFalse(HistoryFormat.isTxn("# a comment"));
  }
}
