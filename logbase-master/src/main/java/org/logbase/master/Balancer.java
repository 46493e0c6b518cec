package org.logbase.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on the active master, one pass every {@code master.balancer.interval.ms}:
 *
 * <ol>
 *   <li>finishes the splits left pending ({@link TabletSplits#resumePending});
 *   <li>splits one tablet grown past a size or traffic threshold ({@link AutoSplits}), whether the
 *       balancer is switched on or off;
 *   <li>moves tablets one at a time as {@link BalancePlanner} decides: drains the servers being
 *       decommissioned (on or off), then, if switched on, evens out tablet counts, then request
 *       rates. A server that joins is empty, so the next pass fills it.
 * </ol>
 *
 * A failed move ends the pass; the next pass tries again. Servers that are not live are failover's
 * ({@link TabletFailover}), not the balancer's. The sizes and rates are the servers' heartbeat
 * reports ({@link ServerLoads}).
 */
final class Balancer {
  private static final Logger LOG = LoggerFactory.getLogger(Balancer.class);
  /** Most moves in one pass, so that a pass ends and the switch and the cluster are looked at again. */
  static final int MAX_MOVES_PER_PASS = 64;

  private final TableStore tables;
  private final LiveServers liveServers;
  private final DrainingServers draining;
  private final BalancerSwitch enabled;
  private final TabletMoves moves;
  private final TabletSplits splits;
  private final ServerLoads loads;
  private final BalancePlanner planner;
  private final AutoSplits autoSplits;
  private final BooleanSupplier active;

  Balancer(TableStore tables, LiveServers liveServers, DrainingServers draining, BalancerSwitch enabled,
      TabletMoves moves, TabletSplits splits, ServerLoads loads, BalancePlanner planner, AutoSplits autoSplits,
      BooleanSupplier active) {
    this.tables = tables;
    this.liveServers = liveServers;
    this.draining = draining;
    this.enabled = enabled;
    this.moves = moves;
    this.splits = splits;
    this.loads = loads;
    this.planner = planner;
    this.autoSplits = autoSplits;
    this.active = active;
  }

  /** One pass; returns the number of tablets moved. */
  int pass() throws Exception {
    // One read of the metadata to find what was left pending; each is read again before it is touched.
    List<TableMeta> all = tables.all();
    moves.resumePending(all);
    splits.resumePending(all);
    splitGrown();
    int moved = 0;
    while (moved < MAX_MOVES_PER_PASS && active.getAsBoolean()) {
      BalancePlanner.Move next = planner.next(picture());
      if (next == null) {
        break;
      }
      synchronized (moves.serial()) {
        if (!next.drain() && !enabled.enabled()) {
          break; // switched off since the picture was taken (ClusterAdmin waits for this lock)
        }
        LOG.info("{} ({})", next, next.why());
        moves.move(next.tablet().table(), next.tablet().tabletId(), next.to(), "");
      }
      moved++;
    }
    return moved;
  }

  /** Splits the tablet furthest past a threshold, if any; a refusal is remembered, not retried. */
  private void splitGrown() throws Exception {
    Map<TabletName, ServerLoads.TabletStats> stats = new HashMap<>();
    forEachAssigned((name, server) -> loads.latest(server).map(r -> r.tablets().get(name))
        .ifPresent(s -> stats.put(name, s)));
    TabletName grown = autoSplits.next(stats);
    if (grown == null || !active.getAsBoolean()) {
      return;
    }
    ServerLoads.TabletStats s = stats.get(grown);
    LOG.info("splitting tablet {}: {}", grown, autoSplits.why(s));
    try {
      TabletSplits.Split done = splits.split(grown.table(), grown.tabletId(), null, "");
      LOG.info("split tablet {} at the key of {} bytes into tablets {} and {} on {}", grown, done.key().length,
          done.leftId(), done.rightId(), done.server());
    } catch (InvalidRequestException e) {
      autoSplits.refused(grown, s.versions());
      LOG.info("tablet {} was not split ({}); asked again once it has {} row versions", grown, e.getMessage(),
          2 * s.versions());
    }
  }

  /** The cluster as the planner needs it: movable tablets per server with their request rates. */
  private BalancePlanner.Picture picture() throws Exception {
    SortedMap<String, String> live = liveServers.read();
    Set<String> drains = new TreeSet<>(draining.read());
    drains.retainAll(live.keySet());
    Map<String, List<BalancePlanner.Tablet>> onServer = new TreeMap<>();
    forEachAssigned((name, server) -> {
      double rate = loads.latest(server).map(r -> r.tablets().get(name))
          .filter(ServerLoads.TabletStats::hasRate).map(ServerLoads.TabletStats::requestsPerSecond).orElse(-1.0);
      onServer.computeIfAbsent(server, k -> new ArrayList<>()).add(new BalancePlanner.Tablet(name, rate));
    });
    return new BalancePlanner.Picture(onServer, draining.placeable(live).keySet(), drains, enabled.enabled());
  }

  /** Calls {@code each} with every tablet assigned to a server and not being split, and its server. */
  private void forEachAssigned(Assigned each) throws Exception {
    for (TableMeta table : tables.all()) {
      for (TabletLocation t : table.getTabletsList()) {
        if (!t.hasSplit() && !t.getServerId().isEmpty()) {
          each.accept(new TabletName(table.getSpec().getName(), t.getTablet().getTabletId()), t.getServerId());
        }
      }
    }
  }

  @FunctionalInterface
  private interface Assigned {
    void accept(TabletName tablet, String server);
  }
}
