package org.logbase.master;

import java.util.HashMap;
import java.util.Map;
import org.logbase.common.Config;

/**
 * Which tablet to split without an operator asking: the one furthest past a threshold of size (row
 * versions in its indexes: what a tablet costs its server in heap today, docs/master.md) or of
 * traffic (requests per second), as the servers' heartbeats report them ({@link ServerLoads}). A
 * split the server refused (one row holds every version, the table has its most tablets) is not
 * asked again until the tablet has twice the versions it had then. The balancer's thread asks,
 * once per pass; the split itself is {@link TabletSplits#split} with no key (about the middle of
 * the versions).
 */
final class AutoSplits {
  /** A tablet with at least this many row versions is split; 0: never by size. */
  static final String SPLIT_VERSIONS = "master.split.versions";
  static final long DEFAULT_SPLIT_VERSIONS = 10_000_000;
  /** A tablet with at least this many requests per second is split; 0: never by traffic. */
  static final String SPLIT_RPS = "master.split.requests.per.second";
  static final double DEFAULT_SPLIT_RPS = 0;

  private final long maxVersions;
  private final double maxRequestsPerSecond;
  /** Tablets whose split was refused, with their versions then (balancer thread only). */
  private final Map<TabletName, Long> refusedAt = new HashMap<>();

  AutoSplits(long maxVersions, double maxRequestsPerSecond) {
    if (maxVersions < 0 || !(maxRequestsPerSecond >= 0)) {
      throw new IllegalArgumentException(SPLIT_VERSIONS + " and " + SPLIT_RPS + " must be at least 0 (0: off): "
          + maxVersions + ", " + maxRequestsPerSecond);
    }
    this.maxVersions = maxVersions;
    this.maxRequestsPerSecond = maxRequestsPerSecond;
  }

  static AutoSplits from(Config c) {
    return new AutoSplits(c.getLong(SPLIT_VERSIONS, DEFAULT_SPLIT_VERSIONS), c.getDouble(SPLIT_RPS, DEFAULT_SPLIT_RPS));
  }

  /**
   * The tablet to split now, or null.
   *
   * @param stats the tablets that may be split (assigned, no split pending), as their servers report
   *     them
   */
  TabletName next(Map<TabletName, ServerLoads.TabletStats> stats) {
    refusedAt.keySet().retainAll(stats.keySet()); // split or dropped since: forgotten
    TabletName best = null;
    double furthest = 1;
    for (Map.Entry<TabletName, ServerLoads.TabletStats> e : stats.entrySet()) {
      ServerLoads.TabletStats s = e.getValue();
      Long refused = refusedAt.get(e.getKey());
      if (refused != null && s.versions() < 2 * refused) {
        continue;
      }
      double past = Math.max(maxVersions > 0 ? (double) s.versions() / maxVersions : 0,
          maxRequestsPerSecond > 0 ? s.requestsPerSecond() / maxRequestsPerSecond : 0);
      if (past >= furthest) {
        best = e.getKey();
        furthest = past;
      }
    }
    return best;
  }

  /** Why a tablet is split, for the log. */
  String why(ServerLoads.TabletStats s) {
    return String.format("%,d row versions (%s %,d), %.0f requests/s (%s %s)", s.versions(), SPLIT_VERSIONS, maxVersions,
        Math.max(0, s.requestsPerSecond()), SPLIT_RPS, maxRequestsPerSecond > 0 ? String.format("%.0f", maxRequestsPerSecond)
            : "off");
  }

  /** The server refused to split {@code t} when it had {@code versions}. */
  void refused(TabletName t, long versions) {
    refusedAt.put(t, Math.max(1, versions));
  }
}
