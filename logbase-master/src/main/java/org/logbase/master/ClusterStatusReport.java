package org.logbase.master;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.logbase.rpc.ClusterStatusResponse;
import org.logbase.rpc.ServerStatus;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;

/**
 * Builds the answer to ClusterStatus from ZooKeeper (masters, active master, live servers,
 * assignments) and from the heartbeats this master received (loads). Any master can build it; a
 * standby has no heartbeats, so it reports no loads.
 */
final class ClusterStatusReport {
  private final MasterElection election;
  private final LiveServers liveServers;
  private final TableStore tables;
  private final ServerLoads loads;
  private final DrainingServers draining;
  private final BalancerSwitch balancer;

  ClusterStatusReport(MasterElection election, LiveServers liveServers, TableStore tables, ServerLoads loads,
      DrainingServers draining, BalancerSwitch balancer) {
    this.draining = draining;
    this.balancer = balancer;
    this.election = election;
    this.liveServers = liveServers;
    this.tables = tables;
    this.loads = loads;
  }

  /**
   * The status: every live server, plus every server that has tablets assigned or heartbeat to this
   * master but is not live (reported with live=false, so an operator sees tablets nobody serves and
   * servers that died).
   */
  ClusterStatusResponse build() throws Exception {
    Map<String, String> live = liveServers.read();
    List<TableMeta> all = tables.all();
    Map<String, List<String>> assigned = new TreeMap<>();
    for (TableMeta table : all) {
      for (TabletLocation t : table.getTabletsList()) {
        assigned.computeIfAbsent(t.getServerId(), id -> new ArrayList<>())
            .add(TableMetas.tabletName(table.getSpec().getName(), t.getTablet().getTabletId()));
      }
    }
    SortedSet<String> serverIds = new TreeSet<>(live.keySet());
    serverIds.addAll(assigned.keySet());
    serverIds.addAll(loads.reporting()); // gone since, with no tablet left: listed as not live all the same

    ClusterStatusResponse.Builder status = ClusterStatusResponse.newBuilder()
        .setActiveMaster(election.activeMaster().orElse(""))
        .addAllMasters(election.participants())
        .setTables(all.size())
        .setBalancerEnabled(balancer.enabled())
        .addAllMovesInProgress(TabletMoves.inProgress(all));
    Set<String> drains = draining.read();
    for (String id : serverIds) {
      ServerLoads.Report reported = loads.latest(id).orElse(null);
      String address = live.containsKey(id) ? live.get(id) : reported == null ? "" : reported.address();
      ServerStatus.Builder server = ServerStatus.newBuilder()
          .setServerId(id)
          .setAddress(address)
          .setLive(live.containsKey(id))
          .setDraining(drains.contains(id))
          .addAllTablets(assigned.getOrDefault(id, List.of()));
      if (reported != null) {
        server.setLoad(reported.load()); // else absent: "no heartbeat yet", not zeros
      }
      status.addServers(server);
    }
    return status.build();
  }
}
