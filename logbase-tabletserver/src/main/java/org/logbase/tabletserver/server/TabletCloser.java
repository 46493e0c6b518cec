package org.logbase.tabletserver.server;

import java.io.IOException;
import org.logbase.tablet.Tablet;
import org.logbase.txn.TxnManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes tablets this server serves, the one way every close takes: the master's close (a move, a
 * drop) and the close of a drop ZooKeeper records ({@link DroppedTableCloser}). Each close first
 * fences the opens that would come after it and waits for those admitted before, then stops the
 * tablet's writes, waits for those under way to finish, and stops serving it.
 */
final class TabletCloser {
  private static final Logger LOG = LoggerFactory.getLogger(TabletCloser.class);

  private final ServedTablets tablets;
  private final TxnManager txns;
  private final long drainMs;

  /** @param drainMs how long a close waits for opens under way, and for the tablet's writes and transactions */
  TabletCloser(ServedTablets tablets, TxnManager txns, long drainMs) {
    this.tablets = tablets;
    this.txns = txns;
    this.drainMs = drainMs;
  }

  /**
   * Closes the tablet's {@code assignment} as the master asks: an open of it or an older one is
   * refused from now on. Unless {@code dropped}, checkpoints it first while it still serves, so that
   * its next server replays only the records after that.
   *
   * @return how long it went on serving during its checkpoint (ms); 0 if this server does not serve it
   */
  long close(String table, int tableId, int tabletId, long assignment, boolean dropped)
      throws IOException, InterruptedException {
    tablets.beginClose(table, tableId, tabletId, assignment, drainMs);
    Tablet t = tablets.findServed(table, tableId, tabletId);
    if (t == null) {
      return 0;
    }
    // The checkpoint while it still serves (the slow part); then no write appends for it any more,
    // and the next server replays this log from that checkpoint: the few records after it. A
    // dropped table's tablet has no next server: a drop of 4,000 tablets wrote 4,000 for nothing.
    long t0 = System.nanoTime();
    if (!dropped) {
      tablets.checkpointBeforeClose(t);
    }
    long servedMs = (System.nanoTime() - t0) / 1_000_000;
    closeServed(t, "it is being closed (moved, split or dropped)");
    return servedMs;
  }

  /**
   * Closes every tablet of a dropped table this server serves, without checkpoints: from now on no
   * open of any of its tablets is admitted; the tablets served now are closed at once, then the
   * opens admitted before are waited for (at most the drain time) and what they served is closed too.
   *
   * @return false if a close failed, or opens of its tablets were still under way after the wait:
   *     call this again later
   */
  boolean closeDropped(int tableId) throws InterruptedException {
    boolean closedAll = closeServedOf(tableId);
    boolean opensDone = tablets.beginDrop(tableId, drainMs);
    return closeServedOf(tableId) && closedAll && opensDone;
  }

  /** Closes the served tablets of a dropped table; false if one failed to close. */
  private boolean closeServedOf(int tableId) {
    tablets.fenceDropped(tableId);
    boolean all = true;
    for (Tablet t : tablets.servedOf(tableId)) {
      String table = t.descriptor().schema().name();
      int tabletId = t.descriptor().tabletId();
      try {
        closeServed(t, "its table was dropped");
        LOG.info("closed tablet {} of dropped table '{}' (id {}): ZooKeeper records its drop", tabletId, table,
            tableId);
      } catch (IOException | RuntimeException e) {
        all = false;
        LOG.warn("closing tablet {} of dropped table '{}' (id {}) failed; tried again: {}", tabletId, table, tableId,
            e.toString());
      }
    }
    return all;
  }

  /** Stops the tablet's writes, waits for those under way, and stops serving it; its gate reopens if that fails. */
  private void closeServed(Tablet t, String why) throws IOException {
    txns.closeForWrites(t, why, drainMs);
    boolean closed = false;
    try {
      tablets.closeDrained(t);
      closed = true;
    } finally {
      if (!closed) {
        t.gate().reopen(); // it goes on serving: the master rolls a move back, a drop's close is tried again
      }
    }
  }
}
