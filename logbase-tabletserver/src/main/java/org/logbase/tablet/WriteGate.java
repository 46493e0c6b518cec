package org.logbase.tablet;

import org.logbase.common.NotServingTabletException;

/**
 * Whether a tablet still takes writes. Closed when the tablet is about to stop being served here (a
 * move, a split, a drop): from then on a write that has locked its rows finds the gate closed and is
 * refused with {@link NotServingTabletException}, so the client follows the tablet to its next
 * server. Writes that passed the gate before it closed hold their row locks until they are durable
 * and applied; the closer waits for those locks (the transaction layer's {@code closeForWrites}), so
 * that nothing is appended for the tablet after the checkpoint its next server starts from.
 *
 * <p>One gate per tablet for as long as it is served here: a tablet that gains column groups is a
 * new {@link Tablet} object with the same gate.
 */
public final class WriteGate {
  private volatile String closedBecause;

  /** Throws {@link NotServingTabletException} once closed. Called with the write's row locks held. */
  public void check(TabletDescriptor tablet) {
    String why = closedBecause;
    if (why != null) {
      throw new NotServingTabletException("tablet " + tablet + " takes no more writes here: " + why);
    }
  }

  public void close(String why) {
    closedBecause = why;
  }

  /** Takes writes again (a close that could not finish). */
  public void reopen() {
    closedBecause = null;
  }

  public boolean isOpen() {
    return closedBecause == null;
  }
}
