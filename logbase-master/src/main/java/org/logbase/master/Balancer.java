package org.logbase.master;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on the active master, one pass every {@code master.balancer.interval.ms}: first drains the
 * servers being decommissioned (every tablet of a live draining server moves to the live server
 * with the fewest tablets that is not draining), then, if the balancer is switched on, evens out the
 * tablet count: while the fullest server has two or more tablets more than the emptiest, one tablet
 * moves from the first to the second. A server that joins is empty, so the next pass fills it.
 * Each pass starts by finishing the splits left pending ({@link TabletSplits#resumePending}).
 * Moves run one at a time ({@link TabletMoves}); a failed move ends the pass, the next pass tries
 * again. Servers that are not live are failover's ({@link TabletFailover}), not the balancer's.
 *
 * <p>Balancing is by tablet count only; the load servers report in heartbeats is not used yet.
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
  private final BooleanSupplier active;

  Balancer(TableStore tables, LiveServers liveServers, DrainingServers draining, BalancerSwitch enabled,
      TabletMoves moves, TabletSplits splits, BooleanSupplier active) {
    this.splits = splits;
    this.tables = tables;
    this.liveServers = liveServers;
    this.draining = draining;
    this.enabled = enabled;
    this.moves = moves;
    this.active = active;
  }

  /** One pass: splits left pending are finished first; returns the number of tablets moved. */
  int pass() throws Exception {
    splits.resumePending();
    int moved = 0;
    while (moved < MAX_MOVES_PER_PASS && active.getAsBoolean()) {
      Move next = next();
      if (next == null) {
        break;
      }
      LOG.info("balancer: {} ({})", next, next.why());
      moves.move(next.table(), next.tabletId(), next.to());
      moved++;
    }
    return moved;
  }

  /** The next move to make, or null when there is none. */
  private Move next() throws Exception {
    SortedMap<String, String> live = liveServers.read();
    Set<String> drains = draining.read();
    Map<String, String> targets = draining.placeable(live);
    List<TableMeta> all = tables.all();
    Map<String, List<Move>> onServer = new TreeMap<>();
    for (TableMeta table : all) {
      for (TabletLocation t : table.getTabletsList()) {
        List<Move> on = onServer.computeIfAbsent(t.getServerId(), s -> new ArrayList<>());
        if (!t.hasSplit()) { // counted, but not moved while its split is pending
          on.add(new Move(table.getSpec().getName(), t.getTablet().getTabletId(), t.getServerId(), null, null));
        }
      }
    }
    Map<String, Integer> count = new HashMap<>();
    targets.keySet().forEach(s -> count.put(s, onServer.getOrDefault(s, List.of()).size()));
    if (count.isEmpty()) {
      return null;
    }
    String emptiest = count.entrySet().stream()
        .min(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
    for (String server : drains) {
      if (live.containsKey(server) && !targets.containsKey(server) && !onServer.getOrDefault(server, List.of()).isEmpty()) {
        Move m = onServer.get(server).get(0);
        return new Move(m.table(), m.tabletId(), server, emptiest, "server " + server + " is being decommissioned");
      }
    }
    if (!enabled.enabled()) {
      return null;
    }
    String fullest = count.entrySet().stream()
        .max(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
        .orElseThrow().getKey();
    if (count.get(fullest) - count.get(emptiest) < 2 || onServer.getOrDefault(fullest, List.of()).isEmpty()) {
      return null;
    }
    Move m = onServer.get(fullest).get(onServer.get(fullest).size() - 1);
    return new Move(m.table(), m.tabletId(), fullest, emptiest,
        fullest + " has " + count.get(fullest) + " tablets, " + emptiest + " " + count.get(emptiest));
  }

  private record Move(String table, int tabletId, String from, String to, String why) {
    @Override
    public String toString() {
      return "move " + TableMetas.tabletName(table, tabletId) + " from " + from + " to " + to;
    }
  }
}
