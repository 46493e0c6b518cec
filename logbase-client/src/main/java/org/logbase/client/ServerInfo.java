package org.logbase.client;

import java.util.List;

/**
 * One tablet server as the master sees it.
 *
 * @param tablets the tablets assigned to it, each as "table/tabletId"
 * @param requests requests served since the server started
 * @param requestsPerSecond over the server's last heartbeat interval
 * @param logBytes bytes appended to the server's log since it started
 */
public record ServerInfo(
    String serverId,
    String address,
    boolean live,
    List<String> tablets,
    long requests,
    double requestsPerSecond,
    long logBytes) {
  public ServerInfo {
    tablets = List.copyOf(tablets);
  }
}
