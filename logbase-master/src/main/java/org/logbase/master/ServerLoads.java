package org.logbase.master;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.logbase.rpc.ServerLoad;

/**
 * The latest load each tablet server reported in its heartbeat. Kept in memory only: it is
 * refreshed every heartbeat, so a new active master knows it again after one interval.
 */
final class ServerLoads {
  /** What a server last reported. */
  record Report(String address, ServerLoad load) {}

  private final Map<String, Report> latest = new ConcurrentHashMap<>();

  void record(String serverId, String address, ServerLoad load) {
    latest.put(serverId, new Report(address, load));
  }

  Optional<Report> latest(String serverId) {
    return Optional.ofNullable(latest.get(serverId));
  }
}
