package org.logbase.tabletserver.server;

import java.util.HashMap;
import java.util.Map;

/**
 * The newest assignment of each tablet this server was told to close ({@code
 * CloseTabletRequest.assignment}). An open of that assignment or an older one comes from before the
 * close: an OpenTablets delayed in transit, sent before a move's close and handled after it, which
 * would serve the tablet here while its new server serves it too. Such an open is refused. Version 0
 * (a command that names none: tools, tests, tablets created before versions existed) is neither
 * recorded nor refused. One entry per tablet ever closed here, kept while this process lives: a
 * request in flight to an earlier process of this server is lost with it.
 *
 * <p>The {@link TabletOpener} owns it: admitting an open and queuing it happen under this object's
 * lock, and so do recording a close and collecting the opens it must wait for.
 */
final class AssignmentFence {
  private final Map<String, Long> closed = new HashMap<>();

  /**
   * Records that the tablet's {@code assignment} was closed here. By table id, not name: a table
   * dropped and created again under its name has a new id, and its tablets start at assignment 1.
   */
  synchronized void closed(int tableId, int tabletId, long assignment) {
    if (assignment > 0 && tableId > 0) {
      closed.merge(key(tableId, tabletId), assignment, Math::max);
    }
  }

  /** Whether an open of {@code assignment} is newer than every close of the tablet here. */
  synchronized boolean admits(int tableId, int tabletId, long assignment) {
    Long at = closed.get(key(tableId, tabletId));
    return assignment == 0 || at == null || assignment > at;
  }

  private static String key(int tableId, int tabletId) {
    return tableId + "/" + tabletId;
  }
}
