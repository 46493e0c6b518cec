package org.logbase.tablet;

import java.util.concurrent.atomic.AtomicInteger;
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
 *
 * <p>Closes are counted: two closers may close it at once (the master's close and the close of a
 * drop ZooKeeper records, or a split and a move), and one that cannot finish reopens only its own
 * close, so the gate stays closed while the other drains.
 */
public final class WriteGate {
  /** Closes not reopened; closed while above 0. */
  private final AtomicInteger closes = new AtomicInteger();
  /** Why the newest close closed it (set before the count, so a check that sees the count sees a reason). */
  private volatile String closedBecause;

  /** Throws {@link NotServingTabletException} once closed. Called with the write's row locks held. */
  public void check(TabletDescriptor tablet) {
    if (closes.get() > 0) {
      throw new NotServingTabletException("tablet " + tablet + " takes no more writes here: " + closedBecause);
    }
  }

  /** Refuses writes from now on, until every close is reopened. */
  public void close(String why) {
    closedBecause = why;
    closes.incrementAndGet();
  }

  /** Undoes one {@link #close} (a close that could not finish); writes come in again once none is left. */
  public void reopen() {
    closes.updateAndGet(n -> Math.max(0, n - 1));
  }

  public boolean isOpen() {
    return closes.get() == 0;
  }
}
