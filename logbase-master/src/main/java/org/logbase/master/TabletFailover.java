package org.logbase.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.logbase.common.TableNotFoundException;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the tablets of dead tablet servers to live ones. A server is dead once its ZooKeeper session
 * expired (its ephemeral znode is gone): from then on it answers nothing ({@code ServingLease}), and
 * each new owner fences its log and replays only the tablet's tail from it (the tablet server's
 * {@code StorageEngine.openTablets}). The new owners are the live servers with the fewest tablets
 * (not those being decommissioned, unless every live server is).
 *
 * <p>A server this master saw live and then lost is dead at once. One it never saw live (assigned
 * tablets when this master became active, but not registered) may be starting: it is given {@code
 * startupGrace} from this master's activation to register (a whole cluster restarting must not pile
 * every tablet onto the first server up).
 *
 * <p>Reassignment and the heartbeat reconciliation run under one lock ({@link #lock()}), so a
 * server whose tablets were just moved is never told to open them again, and a server told to open
 * its tablets is live when the decision is taken (it then keeps them).
 */
final class TabletFailover {
  private static final Logger LOG = LoggerFactory.getLogger(TabletFailover.class);

  private final TableStore tables;
  private final LiveServers liveServers;
  private final TabletCommands commands;
  private final DrainingServers draining;
  private final Duration startupGrace;
  private final LongSupplier nanos;
  private final Object lock = new Object();
  /** Ids seen live since this master became active (guarded by lock). */
  private final Set<String> seenLive = new HashSet<>();
  /** When this master became active, in {@link #nanos} time (guarded by lock). */
  private long activatedAt;
  private boolean active;

  TabletFailover(TableStore tables, LiveServers liveServers, DrainingServers draining, TabletCommands commands,
      Duration startupGrace, LongSupplier nanos) {
    this.draining = draining;
    this.tables = tables;
    this.liveServers = liveServers;
    this.commands = commands;
    this.startupGrace = startupGrace;
    this.nanos = nanos;
  }

  /** The lock that assignment decisions (this class's and the reconciler's) are taken under. */
  Object lock() {
    return lock;
  }

  void activated() {
    synchronized (lock) {
      seenLive.clear();
      activatedAt = nanos.getAsLong();
      active = true;
    }
  }

  void deactivated() {
    synchronized (lock) {
      active = false;
    }
  }

  /** Notes that a server is live (its heartbeat was answered). */
  void sawLive(String serverId) {
    synchronized (lock) {
      seenLive.add(serverId);
    }
  }

  /**
   * One pass: reassigns every tablet whose server is dead to the live servers, balanced by count,
   * and tells the new owners to open them. Does not wait for them.
   *
   * @return the number of tablets reassigned
   */
  int sweep() throws Exception {
    synchronized (lock) {
      if (!active) {
        return 0;
      }
      SortedMap<String, String> live = liveServers.read();
      seenLive.addAll(live.keySet());
      boolean graceOver = nanos.getAsLong() - activatedAt >= startupGrace.toNanos();
      List<TableMeta> all = tables.all();
      Set<String> dead = new TreeSet<>();
      List<TabletName> orphans = new ArrayList<>();
      List<String> from = new ArrayList<>();
      for (TableMeta table : all) {
        for (TabletLocation t : table.getTabletsList()) {
          String owner = t.getServerId();
          if (!live.containsKey(owner) && (seenLive.contains(owner) || graceOver)) {
            dead.add(owner);
            orphans.add(new TabletName(table.getSpec().getName(), t.getTablet().getTabletId()));
            from.add(owner);
          }
        }
      }
      if (orphans.isEmpty()) {
        return 0;
      }
      if (live.isEmpty()) {
        LOG.warn("servers {} are dead and no tablet server is live: their {} tablets wait for one", dead, orphans.size());
        return 0;
      }
      Map<String, String> targets = draining.placeable(live);
      Map<String, Integer> load = TableMetas.tabletsPerServer(all);
      load.keySet().retainAll(targets.keySet());
      List<String> owners = TabletPlacement.place(orphans.size(), targets.keySet(), load);
      Map<TabletName, Move> plan = new HashMap<>();
      for (int i = 0; i < orphans.size(); i++) {
        plan.put(orphans.get(i), new Move(from.get(i), owners.get(i)));
      }
      LOG.info("tablet servers {} are dead: moving their {} tablets to {}", dead, orphans.size(), live.keySet());
      Map<String, List<TabletCommands.Assignment>> opens = new LinkedHashMap<>();
      for (String name : tablesOf(orphans)) {
        TableMeta updated;
        try {
          updated = tables.update(name, meta -> reassign(meta, plan));
        } catch (TableNotFoundException dropped) {
          continue;
        }
        for (TabletLocation t : updated.getTabletsList()) {
          Move move = plan.get(new TabletName(name, t.getTablet().getTabletId()));
          // A tablet with a split pending is not opened: TabletSplits asks its new server to split it.
          if (move != null && t.getServerId().equals(move.to()) && !t.hasSplit()) {
            opens.computeIfAbsent(move.to(), s -> new ArrayList<>())
                .add(TabletCommands.Assignment.of(updated.getSpec(), t));
          }
        }
      }
      opens.forEach((server, tablets) -> {
        LOG.info("server {} takes over {} tablets (e.g. {})", server, tablets.size(),
            TableMetas.tabletName(tablets.get(0).table().getName(), tablets.get(0).tablet().getTabletId()));
        commands.open(server, live.get(server), tablets);
      });
      return plan.size();
    }
  }

  /** {@code meta} with the tablets the plan moves moved, where they are still on their dead server. */
  private static TableMeta reassign(TableMeta meta, Map<TabletName, Move> plan) {
    TableMeta.Builder b = meta.toBuilder();
    String name = meta.getSpec().getName();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      Move move = plan.get(new TabletName(name, t.getTablet().getTabletId()));
      if (move != null && move.from().equals(t.getServerId())) {
        // A move from the dead server ends here: the tablet goes where failover puts it.
        t.setServerId(move.to()).setAssignment(t.getAssignment() + 1).clearMove();
      }
    }
    return b.build();
  }

  private static Set<String> tablesOf(List<TabletName> tablets) {
    Set<String> names = new TreeSet<>();
    tablets.forEach(t -> names.add(t.table()));
    return names;
  }

  private record Move(String from, String to) {}
}
