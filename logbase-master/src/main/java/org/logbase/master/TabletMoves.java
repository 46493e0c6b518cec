package org.logbase.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a tablet from the live server that serves it to another live server, without copying data:
 *
 * <ol>
 *   <li>the source closes the tablet: it stops taking writes, waits for those in progress, and
 *       checkpoints it (the manifest then names the checkpoint and the source's log position);
 *   <li>the assignment in ZooKeeper changes from source to target, by compare-and-set, only if the
 *       source still has it (a failover may have moved it meanwhile);
 *   <li>the target opens it from that checkpoint and replays the little that follows it in the
 *       source's log (the source is live, so its log is not fenced), then serves.
 * </ol>
 *
 * <p>The assignment is the record of the move: before step 2 the tablet is the source's, and if it
 * closed the tablet and the move goes no further (the master died, the source failed to answer),
 * the heartbeat reconciliation opens it on the source again; after step 2 it is the target's, and a
 * new master opens it there. While a move is between steps 1 and 2 the reconciler must not reopen
 * the tablet on the source: {@link #isMoving} tells it, both decided under the assignment lock.
 *
 * <p>One move at a time (moves are serialised here), which also keeps each server to one move.
 */
final class TabletMoves {
  private static final Logger LOG = LoggerFactory.getLogger(TabletMoves.class);

  /** One move's outcome. */
  record Moved(String table, int tabletId, String from, String to, long unavailableMs) {}

  private final TableStore tables;
  private final LiveServers liveServers;
  private final DrainingServers draining;
  private final TabletCommands commands;
  private final Object assignmentLock;
  private final Duration commandDeadline;
  private final Object oneAtATime = new Object();
  /** Tablet name to "from -> to" for moves between close and reassignment (guarded by assignmentLock). */
  private final Map<String, String> moving = new HashMap<>();

  TabletMoves(TableStore tables, LiveServers liveServers, DrainingServers draining, TabletCommands commands,
      Object assignmentLock, Duration commandDeadline) {
    this.tables = tables;
    this.liveServers = liveServers;
    this.draining = draining;
    this.commands = commands;
    this.assignmentLock = assignmentLock;
    this.commandDeadline = commandDeadline;
  }

  /** Whether {@code tablet} ("table/id") is being moved or split; call with the assignment lock held. */
  boolean isMoving(String tablet) {
    return moving.containsKey(tablet);
  }

  /** The lock that serialises moves and splits: one at a time in the cluster. */
  Object serial() {
    return oneAtATime;
  }

  /** Marks a tablet as being changed on purpose (closed for a split, say): the reconciler leaves it. */
  void mark(String tablet, String how) {
    synchronized (assignmentLock) {
      moving.put(tablet, how);
    }
  }

  void unmark(String tablet) {
    synchronized (assignmentLock) {
      moving.remove(tablet);
    }
  }

  /** The moves in progress, as "table/id from -> to". */
  List<String> inProgress() {
    synchronized (assignmentLock) {
      List<String> out = new ArrayList<>();
      moving.forEach((t, how) -> out.add(t + " " + how));
      return out;
    }
  }

  /**
   * Moves one tablet; returns once the target serves it (or its open failed: then the reconciler
   * opens it there on the target's next heartbeat).
   *
   * @param target the server to move to; null or empty: the live, not draining server with the
   *     fewest tablets
   */
  Moved move(String table, int tabletId, String target) throws Exception {
    synchronized (oneAtATime) {
      return moveAlone(table, tabletId, target);
    }
  }

  private Moved moveAlone(String table, int tabletId, String requested) throws Exception {
    String name = TableMetas.tabletName(table, tabletId);
    TableMeta meta = tables.get(table).meta();
    TabletLocation tablet = TableMetas.tablet(meta, tabletId);
    int tableId = meta.getSpec().getId();
    String from = tablet.getServerId();
    Map<String, String> live = liveServers.read();
    String fromAddress = live.get(from);
    if (fromAddress == null) {
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
    String toAddress = live.get(to);
    if (toAddress == null) {
      throw new InvalidRequestException("no live tablet server '" + to + "' (live: " + live.keySet() + ")");
    }
    if (draining.read().contains(to)) {
      throw new InvalidRequestException("server " + to + " is being decommissioned and takes no tablets");
    }
    mark(name, from + " -> " + to);
    long t0 = System.nanoTime();
    long closedAt;
    long servedMs;
    boolean reassigned;
    try {
      LOG.info("moving tablet {} from {} to {}: closing it on {}", name, from, to, from);
      servedMs = TabletCommands.await(commands.closeToMove(fromAddress, table, tableId, tabletId,
          tablet.getAssignment()), commandDeadline,
          "close tablet " + name + " on " + from).getServedMs();
      closedAt = System.nanoTime();
      synchronized (assignmentLock) {
        TableMeta updated = tables.update(table, m -> reassign(m, tabletId, from, to));
        reassigned = TableMetas.tablet(updated, tabletId).getServerId().equals(to);
      }
    } finally {
      unmark(name);
    }
    if (!reassigned) {
      throw new LogBaseException("tablet " + name + " was moved off " + from + " by a failover while this move ran");
    }
    TableMeta now = tables.get(table).meta();
    TabletLocation moved = TableMetas.tablet(now, tabletId);
    try {
      TabletCommands.await(commands.openMoved(toAddress, TabletCommands.Assignment.of(now.getSpec(), moved)),
          commandDeadline, "open tablet " + name + " on " + to);
    } catch (LogBaseException e) {
      LOG.warn("tablet {} is assigned to {} but its open failed ({}); it is opened again after {}'s next heartbeat",
          name, to, e.getMessage(), to);
      throw e;
    }
    // From the source's refusing writes (after its checkpoint, taken while it still served) to now.
    long ms = (System.nanoTime() - t0) / 1_000_000 - servedMs;
    LOG.info("moved tablet {} from {} to {}: not served for {} ms (checkpoint while serving {} ms, then closing {} ms,"
        + " reassigning and opening {} ms)", name, from, to, ms, servedMs, (closedAt - t0) / 1_000_000 - servedMs,
        (System.nanoTime() - closedAt) / 1_000_000);
    return new Moved(table, tabletId, from, to, ms);
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

  private static TableMeta reassign(TableMeta meta, int tabletId, String from, String to) {
    TableMeta.Builder b = meta.toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == tabletId && t.getServerId().equals(from)) {
        t.setServerId(to).setAssignment(t.getAssignment() + 1);
      }
    }
    return b.build();
  }
}
