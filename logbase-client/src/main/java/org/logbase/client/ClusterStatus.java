package org.logbase.client;

import java.util.List;

/**
 * The cluster as the active master sees it.
 *
 * @param activeMaster host:port of the active master
 * @param masters every master taking part in the election
 * @param tables the number of tables
 */
public record ClusterStatus(String activeMaster, List<String> masters, List<ServerInfo> servers, int tables) {
  public ClusterStatus {
    masters = List.copyOf(masters);
    servers = List.copyOf(servers);
  }
}
