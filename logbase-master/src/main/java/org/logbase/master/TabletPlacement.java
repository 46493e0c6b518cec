package org.logbase.master;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/** Chooses tablet servers for new tablets so that tablets spread evenly over the live servers. */
final class TabletPlacement {
  private TabletPlacement() {}

  /**
   * The server id for each of {@code tablets} new tablets: each goes to the server with the fewest
   * tablets so far (counting {@code assigned}, the tablets it already has), ties broken by the
   * smaller id, so the result is deterministic.
   *
   * @param liveServers ids of the servers that may receive tablets; must not be empty
   * @param assigned tablets already assigned per server id; servers missing from it have none
   */
  static List<String> place(int tablets, Collection<String> liveServers, Map<String, Integer> assigned) {
    if (liveServers.isEmpty()) {
      throw new IllegalArgumentException("no servers to place tablets on");
    }
    record Load(String server, int tablets) {}
    PriorityQueue<Load> byLoad = new PriorityQueue<>(
        Comparator.comparingInt(Load::tablets).thenComparing(Load::server));
    for (String server : liveServers) {
      byLoad.add(new Load(server, assigned.getOrDefault(server, 0)));
    }
    List<String> owners = new ArrayList<>(tablets);
    for (int i = 0; i < tablets; i++) {
      Load least = byLoad.poll();
      owners.add(least.server());
      byLoad.add(new Load(least.server(), least.tablets() + 1));
    }
    return owners;
  }
}
