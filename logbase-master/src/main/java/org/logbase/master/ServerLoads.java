package org.logbase.master;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.logbase.rpc.HeartbeatRequest;
import org.logbase.rpc.ServerLoad;
import org.logbase.rpc.TabletLoad;

/**
 * The latest load each tablet server reported in its heartbeat, with each served tablet's size and
 * request rate. Kept in memory only: it is refreshed every heartbeat, so a new active master knows
 * it again after one interval (request rates after two).
 */
final class ServerLoads {
  /**
   * What a server last reported.
   *
   * @param tablets its tablets' stats, by tablet
   * @param atNanos when the report arrived ({@link #nanos} time)
   */
  record Report(String address, ServerLoad load, Map<TabletName, TabletStats> tablets, long atNanos) {}

  /**
   * One tablet's size and traffic.
   *
   * @param requestsPerSecond over the interval between this report and the one before it; -1 when
   *     there is no rate yet (the first report of the tablet from this server, or its counter
   *     started over: reopened)
   * @param rateSinceNanos the start of that interval; the tablet has been on this server since then
   */
  record TabletStats(long versions, long requests, double requestsPerSecond, long rateSinceNanos) {
    boolean hasRate() {
      return requestsPerSecond >= 0;
    }
  }

  private final Map<String, Report> latest = new ConcurrentHashMap<>();
  private final LongSupplier nanos;

  ServerLoads(LongSupplier nanos) {
    this.nanos = nanos;
  }

  void record(HeartbeatRequest beat) {
    long now = nanos.getAsLong();
    latest.compute(beat.getServerId(), (id, before) -> {
      Map<TabletName, TabletStats> tablets = new HashMap<>();
      for (TabletLoad t : beat.getTabletLoadsList()) {
        TabletName name = new TabletName(t.getTablet().getTable(), t.getTablet().getTabletId());
        TabletStats earlier = before == null ? null : before.tablets().get(name);
        double rate = -1;
        long since = now;
        if (earlier != null && t.getRequests() >= earlier.requests() && now > before.atNanos()) {
          rate = (t.getRequests() - earlier.requests()) / ((now - before.atNanos()) / 1e9);
          since = before.atNanos();
        }
        tablets.put(name, new TabletStats(t.getVersions(), t.getRequests(), rate, since));
      }
      return new Report(beat.getAddress(), beat.getLoad(), Map.copyOf(tablets), now);
    });
  }

  /** The servers that heartbeat to this master since it started, live or not. */
  Set<String> reporting() {
    return Set.copyOf(latest.keySet());
  }

  Optional<Report> latest(String serverId) {
    return Optional.ofNullable(latest.get(serverId));
  }
}
