package org.logbase.client;

import java.util.List;

/**
 * The cluster as the active master sees it.
 *
 * @param activeMaster host:port of the active master
 * @param masters every master taking part in the election
 * @param tables the number of tables
 * @param balancerEnabled whether the master's balancer evens out tablets over the servers
 * @param movesInProgress tablet moves under way, as "table/tablet from -> to"
 */
public record ClusterStatus(String activeMaster, List<String> masters, List<ServerInfo> servers, int tables,
    boolean balancerEnabled, List<String> movesInProgress) {
  public ClusterStatus {
    movesInProgress = List.copyOf(movesInProgress);
    masters = List.copyOf(masters);
    servers = List.copyOf(servers);
  }
}
