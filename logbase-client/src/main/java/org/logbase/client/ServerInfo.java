package org.logbase.client;

import java.time.Instant;
import java.util.List;

/**
 * One tablet server as the master sees it.
 *
 * @param tablets the tablets assigned to it, each as "table/tabletId"
 * @param load what the server said in its latest heartbeat to the active master; null until the
 *     master has one (a master that just became active gets one within a heartbeat interval)
 */
public record ServerInfo(String serverId, String address, boolean live, boolean draining, List<String> tablets,
    Load load) {
  public ServerInfo {
    tablets = List.copyOf(tablets);
  }

  /**
   * A server's load. The counters count since {@code startedAt}: they start at zero when a server
   * restarts, while {@code logFileBytes} covers all of its log.
   *
   * @param startedAt when the server (this run of it) started
   * @param requests requests served since it started
   * @param requestsPerSecond over its last heartbeat interval
   * @param logFileBytes the size of its log's files on the shared file system
   * @param appendedBytes bytes it appended to its log since it started
   * @param locks row locks it holds now (transactions committing or prepared)
   * @param unknownDecides decisions it received for transactions not prepared there (harmless:
   *     docs/transactions.md), since it started
   * @param lastCompaction the outcome of its last compaction, one line; empty if none since it started
   */
  public record Load(Instant startedAt, long requests, double requestsPerSecond, long logFileBytes,
      long appendedBytes, int locks, long unknownDecides, String lastCompaction) {}
}
