package org.logbase.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import org.logbase.common.OperationFailedException;
import org.logbase.rpc.DoneRequest;
import org.logbase.rpc.MoveIntent;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a tablet from the live server that serves it to another live server, without copying data:
 *
 * <ol>
 *   <li>the move is recorded in the tablet's assignment ({@link MoveIntent}: the target, and the
 *       admin request that asked for it);
 *   <li>the source closes the tablet: it checkpoints it while it still serves, then stops taking
 *       writes and waits for those in progress (the manifest names the checkpoint and the source's
 *       log position);
 *   <li>the assignment changes from source to target and the intent goes, by compare-and-set, only
 *       if the source still has it (a failover may have moved it meanwhile);
 *   <li>the target opens it from that checkpoint and replays the little that follows it in the
 *       source's log (the source is live, so its log is not fenced), then serves.
 * </ol>
 *
 * <p>The intent is what makes a move safe to cut short anywhere. A tablet with one is left alone
 * by the reconciler (its source may have closed it on purpose), by schema reopens and by other
 * moves. {@link #resumePending} (run by the balancer's thread, and so by a new master after a
 * failover) finishes every move left pending: it asks the source to close the tablet again (a
 * server answers a close of a tablet it does not serve at once), then reassigns and opens it on the
 * target. A move that cannot go on (its source refused or failed to close it, or its target is no
 * longer live, or is being decommissioned) is rolled back: the intent goes and the assignment is
 * raised, so the reconciler's open of it on the source is newer than the close the source may have
 * had (a server refuses an open no newer than a close). A tablet whose source died is failover's,
 * which drops the intent.
 *
 * <p>One move or split at a time in the cluster ({@link #serial}); so any intent seen while
 * holding it is one left pending.
 */
final class TabletMoves {
  private static final Logger LOG = LoggerFactory.getLogger(TabletMoves.class);

  /** One move's outcome; {@code unavailableMs} is 0 for a move found done by an earlier attempt. */
  record Moved(String table, int tabletId, String from, String to, long unavailableMs) {}

  private final TableStore tables;
  private final LiveServers liveServers;
  private final DrainingServers draining;
  private final TabletCommands commands;
  private final Object assignmentLock;
  private final Duration commandDeadline;
  private final Object oneAtATime = new Object();

  TabletMoves(TableStore tables, LiveServers liveServers, DrainingServers draining, TabletCommands commands,
      Object assignmentLock, Duration commandDeadline) {
    this.tables = tables;
    this.liveServers = liveServers;
    this.draining = draining;
    this.commands = commands;
    this.assignmentLock = assignmentLock;
    this.commandDeadline = commandDeadline;
  }

  /** The lock that serialises moves and splits: one at a time in the cluster. */
  Object serial() {
    return oneAtATime;
  }

  /** The moves and splits recorded as under way, as "table/id from -> to" and "table/id splitting on ...". */
  static List<String> inProgress(List<TableMeta> all) {
    List<String> out = new ArrayList<>();
    for (TableMeta meta : all) {
      for (TabletLocation t : meta.getTabletsList()) {
        String name = TableMetas.tabletName(meta.getSpec().getName(), t.getTablet().getTabletId());
        if (t.hasMove()) {
          out.add(name + " " + t.getServerId() + " -> " + t.getMove().getToServer());
        }
        if (t.hasSplit()) {
          out.add(name + " splitting on " + t.getServerId() + " into " + t.getSplit().getLeftId() + " and "
              + t.getSplit().getRightId());
        }
      }
    }
    return out;
  }

  /**
   * Moves one tablet; returns once the target serves it (or its open failed: then the reconciler
   * opens it there on the target's next heartbeat).
   *
   * @param target the server to move to; null or empty: the live, not draining server with the
   *     fewest tablets
   * @param requestId the admin request's id (empty for the balancer): the same request sent again
   *     finishes its move if it is pending, or answers it if it is done
   */
  Moved move(String table, int tabletId, String target, String requestId) throws Exception {
    synchronized (oneAtATime) {
      TabletLocation tablet = TableMetas.tablet(tables.get(table).meta(), tabletId);
      if (!requestId.isEmpty() && !tablet.hasMove() && tablet.getDone().getRequestId().equals(requestId)) {
        LOG.info("move of tablet {} asked again by request {}: done already, to {}",
            TableMetas.tabletName(table, tabletId), requestId, tablet.getServerId());
        return new Moved(table, tabletId, tablet.getDone().getFromServer(), tablet.getServerId(), 0);
      }
      if (tablet.hasMove()) {
        boolean ours = !requestId.isEmpty() && tablet.getMove().getRequestId().equals(requestId);
        LOG.info("tablet {} has a move to {} left pending{}: finishing it first", TableMetas.tabletName(table, tabletId),
            tablet.getMove().getToServer(), ours ? " by an earlier attempt of this request" : "");
        if (ours) {
          return finish(table, tablet);
        }
        try {
          finish(table, tablet);
        } catch (LogBaseException e) {
          LOG.info("the move of tablet {} left pending did not finish ({}); this one goes on",
              TableMetas.tabletName(table, tabletId), e.getMessage());
        }
      }
      return start(table, tabletId, target, requestId);
    }
  }

  /**
   * Finishes (or rolls back) every move left pending by a master that died; returns how many.
   *
   * @param all the tables as read at the start of the pass: a tablet found with an intent there is
   *     read again under the lock before anything is done
   */
  int resumePending(List<TableMeta> all) throws Exception {
    int done = 0;
    for (TableMeta meta : all) {
      for (TabletLocation t : meta.getTabletsList()) {
        if (!t.hasMove()) {
          continue;
        }
        String table = meta.getSpec().getName();
        int tabletId = t.getTablet().getTabletId();
        synchronized (oneAtATime) {
          TabletLocation now;
          try {
            now = TableMetas.tablet(tables.get(table).meta(), tabletId);
          } catch (InvalidRequestException gone) {
            continue; // dropped or split meanwhile
          }
          if (!now.hasMove()) {
            continue;
          }
          LOG.info("finishing the move of tablet {} to {} left pending", TableMetas.tabletName(table, tabletId),
              now.getMove().getToServer());
          try {
            finish(table, now);
            done++;
          } catch (LogBaseException e) {
            // Rolled back, or tried again next pass; the other moves and the pass go on.
            LOG.warn("the move of tablet {} left pending did not finish: {}", TableMetas.tabletName(table, tabletId),
                e.getMessage());
          }
        }
      }
    }
    return done;
  }

  private Moved start(String table, int tabletId, String requested, String requestId) throws Exception {
    String name = TableMetas.tabletName(table, tabletId);
    TabletLocation tablet = TableMetas.tablet(tables.get(table).meta(), tabletId);
    String from = tablet.getServerId();
    Map<String, String> live = liveServers.read();
    if (!live.containsKey(from)) {
      // Not retriable: a client retrying would move it again from wherever failover put it.
      throw new InvalidRequestException("tablet " + name + " is on server " + from
          + ", which is not live: failover moves it once that server's session has expired");
    }
    if (tablet.hasSplit()) {
      throw new InvalidRequestException("tablet " + name + " is being split; move its daughters afterwards");
    }
    String to = requested == null || requested.isEmpty() ? leastLoaded(live, from) : requested;
    if (to.equals(from)) {
      throw new InvalidRequestException("tablet " + name + " is on server " + to + " already");
    }
    if (!live.containsKey(to)) {
      throw new InvalidRequestException("no live tablet server '" + to + "' (live: " + live.keySet() + ")");
    }
    if (draining.read().contains(to)) {
      throw new InvalidRequestException("server " + to + " is being decommissioned and takes no tablets");
    }
    MoveIntent intent = MoveIntent.newBuilder().setToServer(to).setRequestId(requestId).build();
    TabletLocation recorded;
    synchronized (assignmentLock) {
      TableMeta updated = tables.update(table, m -> withIntent(m, tabletId, from, tablet.getAssignment(), intent));
      recorded = TableMetas.tablet(updated, tabletId);
    }
    if (!intent.equals(recorded.getMove())) {
      throw new OperationFailedException("tablet " + name + " changed while its move was being recorded (now on "
          + recorded.getServerId() + "); ask again");
    }
    return finish(table, recorded);
  }

  /** Carries out the move recorded in {@code tablet}'s intent, or rolls it back. */
  private Moved finish(String table, TabletLocation tablet) throws Exception {
    int tabletId = tablet.getTablet().getTabletId();
    String name = TableMetas.tabletName(table, tabletId);
    MoveIntent intent = tablet.getMove();
    String from = tablet.getServerId();
    String to = intent.getToServer();
    Map<String, String> live = liveServers.read();
    String fromAddress = live.get(from);
    if (fromAddress == null) {
      throw new OperationFailedException("tablet " + name + " is on server " + from + ", which is not live: failover gives"
          + " it to a live server (its move to " + to + " ends there)");
    }
    if (!live.containsKey(to) || draining.read().contains(to)) {
      rollBack(table, tablet);
      throw new OperationFailedException("the move of tablet " + name + " to " + to + " was rolled back: " + to
          + (live.containsKey(to) ? " is being decommissioned" : " is not live any more"));
    }
    int tableId = tables.get(table).meta().getSpec().getId();
    long t0 = System.nanoTime();
    long closedAt;
    long servedMs;
    try {
      LOG.info("moving tablet {} from {} to {}: closing it on {}", name, from, to, from);
      servedMs = TabletCommands.await(commands.closeToMove(fromAddress, table, tableId, tabletId,
          tablet.getAssignment()), commandDeadline, "close tablet " + name + " on " + from).getServedMs();
    } catch (LogBaseException e) {
      rollBack(table, tablet);
      throw new OperationFailedException(e.getMessage() + "; the move was rolled back", e);
    }
    closedAt = System.nanoTime();
    DoneRequest done = DoneRequest.newBuilder().setRequestId(intent.getRequestId()).setFromServer(from).build();
    TableMeta now;
    synchronized (assignmentLock) {
      now = tables.update(table, m -> reassign(m, tabletId, from, intent, done));
    }
    TabletLocation moved = TableMetas.tablet(now, tabletId);
    if (!moved.getServerId().equals(to) || moved.hasMove()) {
      throw new OperationFailedException("tablet " + name + " was moved off " + from + " by a failover while this move ran");
    }
    try {
      TabletCommands.await(commands.openMoved(live.get(to), TabletCommands.Assignment.of(now.getSpec(), moved)),
          commandDeadline, "open tablet " + name + " on " + to);
    } catch (LogBaseException e) {
      LOG.warn("tablet {} is assigned to {} but its open failed ({}); it is opened again after {}'s next heartbeat",
          name, to, e.getMessage(), to);
      throw new OperationFailedException("tablet " + name + " is moved to " + to + " but its open there failed ("
          + e.getMessage() + "); " + to + " opens it after its next heartbeat, or failover gives it to a live server",
          e);
    }
    // From the source's refusing writes (after its checkpoint, taken while it still served) to now.
    long ms = (System.nanoTime() - t0) / 1_000_000 - servedMs;
    LOG.info("moved tablet {} from {} to {}: not served for {} ms (checkpoint while serving {} ms, then closing {} ms,"
        + " reassigning and opening {} ms)", name, from, to, ms, servedMs, (closedAt - t0) / 1_000_000 - servedMs,
        (System.nanoTime() - closedAt) / 1_000_000);
    return new Moved(table, tabletId, from, to, ms);
  }

  /**
   * Drops the intent and raises the assignment, if the tablet is still as {@code tablet} says: the
   * source then gets it again from the reconciler, with an open newer than any close it had.
   */
  private void rollBack(String table, TabletLocation tablet) throws Exception {
    int tabletId = tablet.getTablet().getTabletId();
    synchronized (assignmentLock) {
      tables.update(table, m -> {
        TableMeta.Builder b = m.toBuilder();
        for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
          if (t.getTablet().getTabletId() == tabletId && t.getServerId().equals(tablet.getServerId())
              && t.getMove().equals(tablet.getMove())) {
            t.clearMove().setAssignment(t.getAssignment() + 1);
          }
        }
        return b.build();
      });
    }
    LOG.info("move of tablet {} from {} to {} rolled back; {} serves it again", TableMetas.tabletName(table, tabletId),
        tablet.getServerId(), tablet.getMove().getToServer(), tablet.getServerId());
  }

  /** The live, not draining server with the fewest tablets, other than {@code from}. */
  private String leastLoaded(Map<String, String> live, String from) throws Exception {
    Map<String, String> candidates = new HashMap<>(draining.placeable(live));
    candidates.remove(from);
    if (candidates.isEmpty()) {
      throw new InvalidRequestException("no other live tablet server to move to");
    }
    Map<String, Integer> load = TableMetas.tabletsPerServer(tables.all());
    return TabletPlacement.place(1, candidates.keySet(), load).get(0);
  }

  /** The intent recorded, if the tablet is still on {@code from} at that assignment, with nothing under way. */
  private static TableMeta withIntent(TableMeta meta, int tabletId, String from, long assignment, MoveIntent intent) {
    TableMeta.Builder b = meta.toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == tabletId && t.getServerId().equals(from) && t.getAssignment() == assignment
          && !t.hasMove() && !t.hasSplit()) {
        t.setMove(intent);
      }
    }
    return b.build();
  }

  private static TableMeta reassign(TableMeta meta, int tabletId, String from, MoveIntent intent, DoneRequest done) {
    TableMeta.Builder b = meta.toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == tabletId && t.getServerId().equals(from) && t.getMove().equals(intent)) {
        t.setServerId(intent.getToServer()).setAssignment(t.getAssignment() + 1).clearMove().setDone(done);
      }
    }
    return b.build();
  }
}
