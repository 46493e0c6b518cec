package org.logbase.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A cell owns its value or views a lent array: an owned value is handed out as it is; a view is
 * copied on {@link Cell#value}, read in place by {@link Cell#readValue}, and fails every read once
 * its loan has ended, before and after the read; {@link Row#owned} copies what a row views.
 */
class CellTest {
  private static final byte[] BLOCK = {9, 9, 1, 2, 3, 9};

  @Test
  void anOwnedValueIsHandedOutAsItIs() {
    byte[] v = {1, 2, 3};
    Cell c = new Cell(v, 7);
    assertTrue(c.owns());
    assertSame(v, c.value());
    assertSame(c, c.owned());
    assertEquals(3, c.valueLength());
    assertEquals(7, c.timestamp());
  }

  @Test
  void aViewIsCopiedOutAndReadInPlaceWhileItsLoanRuns() {
    Loan loan = new Loan();
    Cell c = Cell.view(BLOCK, 2, 3, 7, loan);
    assertFalse(c.owns());
    assertArrayEquals(new byte[] {1, 2, 3}, c.value());
    assertNotSame(c.value(), c.value());
    assertEquals(3, c.valueLength());
    assertEquals(2 + 3, (int) c.readValue((a, from, n) -> {
      assertSame(BLOCK, a);
      return from + n;
    }));
    Cell owned = c.owned();
    assertTrue(owned.owns());
    assertEquals(c, owned);
    assertEquals(c.hashCode(), owned.hashCode());
    assertNotEquals(c, new Cell(new byte[] {1, 2, 3}, 8), "the timestamp counts");
    assertNotEquals(c, new Cell(new byte[] {1, 2, 4}, 7), "so do the bytes");
    assertTrue(Cell.view(BLOCK, 0, BLOCK.length, 1, null).owns(), "a view of a whole array nobody reuses owns it");
    assertFalse(Cell.view(BLOCK, 0, BLOCK.length, 1, loan).owns());
    assertThrows(IndexOutOfBoundsException.class, () -> Cell.view(BLOCK, 4, 3, 1, null));
  }

  @Test
  void aViewWhoseLoanEndedFailsEveryRead() {
    Loan loan = new Loan();
    Cell c = Cell.view(BLOCK, 2, 3, 7, loan);
    Cell copy = c.owned();
    loan.end();
    assertTrue(loan.ended());
    assertThrows(IllegalStateException.class, c::value);
    assertThrows(IllegalStateException.class, c::valueLength);
    assertThrows(IllegalStateException.class, c::owned);
    assertThrows(IllegalStateException.class, () -> c.readValue((a, from, n) -> n));
    assertArrayEquals(new byte[] {1, 2, 3}, copy.value(), "a copy taken before outlives the loan");
    assertEquals(7, c.timestamp(), "the timestamp is the cell's own");
  }

  @Test
  void aLoanThatEndsWhileAValueIsReadFailsTheRead() {
    Loan loan = new Loan();
    Cell c = Cell.view(BLOCK, 2, 3, 7, loan);
    assertThrows(IllegalStateException.class, () -> c.readValue((a, from, n) -> {
      loan.end(); // the lender took the block back meanwhile: what was read may be another block's
      return n;
    }));
  }

  @Test
  void aRowOwnedCopiesWhatItViewsAndIsItselfWhenItViewsNothing() {
    Loan loan = new Loan();
    Cells.Builder b = Cells.builder(2);
    b.addIfAbsent("a", new Cell(new byte[] {5}, 1));
    b.addIfAbsent("b", Cell.view(BLOCK, 2, 2, 2, loan));
    Row viewing = new Row(new byte[] {0}, b.build());
    Row owned = viewing.owned();
    loan.end();
    assertThrows(IllegalStateException.class, () -> viewing.value("b"));
    assertArrayEquals(new byte[] {1, 2}, owned.value("b"));
    assertArrayEquals(new byte[] {5}, owned.value("a"));
    assertEquals(2, owned.cells().get("b").timestamp());
    assertSame(owned, owned.owned());
    Row plain = new Row(new byte[] {0}, new TreeMap<>(Map.of("a", new Cell(new byte[] {5}, 1))));
    assertSame(plain, plain.owned());
  }

  @Test
  void aConditionReadsAViewInPlace() {
    Loan loan = new Loan();
    Row r = new Row(new byte[] {0}, new TreeMap<>(Map.of("c", Cell.view(BLOCK, 2, 3, 1, loan))));
    assertTrue(new ColumnCondition("c", new byte[] {1, 2, 3}, false).test(r));
    assertTrue(new ColumnCondition("c", new byte[] {1, 2}, true).test(r));
    assertFalse(new ColumnCondition("c", new byte[] {1, 2}, false).test(r));
    assertFalse(new ColumnCondition("c", new byte[] {2}, true).test(r));
    assertFalse(new ColumnCondition("c", new byte[] {1, 2, 3, 9}, true).test(r), "a prefix longer than the value");
    assertFalse(new ColumnCondition("d", new byte[] {1}, true).test(r));
  }
}
