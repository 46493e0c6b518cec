package org.logbase.tabletserver.server;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The newest assignment of each tablet this server was told to close ({@code
 * CloseTabletRequest.assignment}). An open of that assignment or an older one comes from before the
 * close: an OpenTablets delayed in transit, sent before a move's close and handled after it, which
 * would serve the tablet here while its new server serves it too. Such an open is refused. Version 0
 * (a command that names none: tools, tests, tablets created before versions existed) is neither
 * recorded nor refused. One entry per tablet ever closed here, kept while this process lives: a
 * request in flight to an earlier process of this server is lost with it.
 *
 * <p>A dropped table ({@link #dropped}) is fenced whole: every open of any of its tablets is refused,
 * whatever its assignment, 0 included (a split's own open of its tablet).
 *
 * <p>The {@link TabletOpener} owns it: admitting an open and queuing it happen under this object's
 * lock, and so do recording a close and collecting the opens it must wait for.
 */
final class AssignmentFence {
  private final Map<String, Long> closed = new HashMap<>();
  /** Tables whose drop this server heard of: one id per table dropped while this process lives. */
  private final Set<Integer> droppedTables = new HashSet<>();

  /**
   * Records that the tablet's {@code assignment} was closed here. By table id, not name: a table
   * dropped and created again under its name has a new id, and its tablets start at assignment 1.
   */
  synchronized void closed(int tableId, int tabletId, long assignment) {
    if (assignment > 0 && tableId > 0) {
      closed.merge(key(tableId, tabletId), assignment, Math::max);
    }
  }

  /** Records that table {@code tableId} was dropped: none of its tablets opens here again. */
  synchronized void dropped(int tableId) {
    droppedTables.add(tableId);
  }

  /**
   * Why an open of {@code assignment} is refused, or null if it is admitted: newer than every close
   * of the tablet here, and its table not dropped.
   */
  synchronized String refusal(int tableId, int tabletId, long assignment) {
    if (droppedTables.contains(tableId)) {
      return "its table was dropped";
    }
    Long at = closed.get(key(tableId, tabletId));
    return assignment == 0 || at == null || assignment > at ? null : "assignment " + at + " was closed here since";
  }

  private static String key(int tableId, int tabletId) {
    return tableId + "/" + tabletId;
  }
}
