package org.logbase.tablet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logbase.common.NotServingTabletException;
import org.logbase.testing.TestTables;

class WriteGateTest {
  static final TabletDescriptor USERS = TestTables.whole(TestTables.USERS);

  /**
   * Two closers at once (a drop's and the master's): the one that cannot finish reopens its own
   * close only, and the gate stays closed for the other, which is still draining. A gate that
   * reopened on any reopen let writes in behind the other's drain.
   */
  @Test
  void aReopenUndoesOneCloseOnly() {
    WriteGate gate = new WriteGate();
    gate.close("moved");
    gate.close("its table was dropped");
    gate.reopen();
    assertFalse(gate.isOpen());
    NotServingTabletException e = assertThrows(NotServingTabletException.class, () -> gate.check(USERS));
    assertTrue(e.getMessage().contains("its table was dropped"), e.getMessage());
    gate.reopen();
    assertTrue(gate.isOpen());
    assertDoesNotThrow(() -> gate.check(USERS));
    gate.reopen(); // one reopen too many changes nothing
    gate.close("split");
    assertFalse(gate.isOpen(), "a close after a reopen too many still closes");
  }
}
