package org.logbase.master;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.logbase.common.Config;

/**
 * The balancer's decision, from a picture of the cluster and nothing else (no I/O): which one tablet
 * to move next, or none. In order:
 *
 * <ol>
 *   <li><b>drain:</b> a tablet of a live server being decommissioned goes to the target with the
 *       fewest tablets (whether the balancer is on or off);
 *   <li><b>count:</b> while the fullest target has two or more tablets more than the emptiest, its
 *       coldest tablet (lowest request rate; tablets without a rate yet go last) moves there;
 *   <li><b>load:</b> once counts are even, and the request rate of every tablet on the targets is
 *       known (measured on its current server, so not right after a move), the target with the most
 *       requests per second gives one tablet to the one with the fewest, when the busiest has at
 *       least {@code minRequestsPerSecond} and more than {@code ratio} times the quietest: the
 *       tablet whose rate is nearest half the gap, and below the gap (so that both end up below the
 *       busiest's rate now, and the move cannot be undone by the next one). When the quietest has
 *       as many tablets as the busiest, the count step that follows takes its coldest tablet away
 *       again, so the pair is judged as a swap: the rate moved is the tablet's less that one's.
 * </ol>
 *
 * BalancePlannerTest runs random clusters until the planner stops and shows that it does, without
 * tablets going back and forth.
 */
final class BalancePlanner {
  /** Below this many requests per second on the busiest server, load is not balanced. */
  static final String LOAD_MIN_RPS = "master.balancer.load.min.requests.per.second";
  static final double DEFAULT_LOAD_MIN_RPS = 200;
  /** How much busier than the quietest the busiest server must be before a load move. */
  static final String LOAD_RATIO = "master.balancer.load.ratio";
  static final double DEFAULT_LOAD_RATIO = 1.5;

  /** A tablet as the planner sees it; {@code requestsPerSecond} is negative when not known yet. */
  record Tablet(TabletName name, double requestsPerSecond) {
    boolean hasRate() {
      return requestsPerSecond >= 0;
    }
  }

  /**
   * The cluster: the movable tablets of each server (live or not), the servers tablets may go to,
   * the live servers being drained, and whether the balancer is switched on.
   */
  record Picture(Map<String, List<Tablet>> onServer, Set<String> targets, Set<String> draining, boolean enabled) {
    List<Tablet> on(String server) {
      return onServer.getOrDefault(server, List.of());
    }

    double load(String server) {
      return on(server).stream().mapToDouble(Tablet::requestsPerSecond).sum();
    }
  }

  /** @param drain whether it drains a decommissioned server (made whether the balancer is on or off) */
  record Move(TabletName tablet, String from, String to, boolean drain, String why) {
    @Override
    public String toString() {
      return "move " + tablet + " from " + from + " to " + to;
    }
  }

  private final double minRequestsPerSecond;
  private final double ratio;

  BalancePlanner(double minRequestsPerSecond, double ratio) {
    if (!(minRequestsPerSecond >= 0) || !(ratio >= 1)) {
      throw new IllegalArgumentException(LOAD_MIN_RPS + " must be at least 0 and " + LOAD_RATIO
          + " at least 1: " + minRequestsPerSecond + ", " + ratio);
    }
    this.minRequestsPerSecond = minRequestsPerSecond;
    this.ratio = ratio;
  }

  static BalancePlanner from(Config c) {
    return new BalancePlanner(c.getDouble(LOAD_MIN_RPS, DEFAULT_LOAD_MIN_RPS), c.getDouble(LOAD_RATIO, DEFAULT_LOAD_RATIO));
  }

  /** The next move, or null. */
  Move next(Picture p) {
    if (p.targets().isEmpty()) {
      return null;
    }
    Comparator<String> byCount = Comparator.<String>comparingInt(s -> p.on(s).size()).thenComparing(Comparator.naturalOrder());
    String emptiest = p.targets().stream().min(byCount).orElseThrow();
    for (String server : p.draining()) {
      if (!p.targets().contains(server) && !p.on(server).isEmpty()) {
        return new Move(p.on(server).get(0).name(), server, emptiest, true, "server " + server + " is being decommissioned");
      }
    }
    if (!p.enabled()) {
      return null;
    }
    String fullest = p.targets().stream().max(byCount).orElseThrow();
    int most = p.on(fullest).size();
    int least = p.on(emptiest).size();
    if (most - least >= 2) {
      Tablet coldest = p.on(fullest).stream()
          .min(Comparator.comparing((Tablet t) -> !t.hasRate()).thenComparingDouble(Tablet::requestsPerSecond))
          .orElseThrow();
      return new Move(coldest.name(), fullest, emptiest, false, fullest + " has " + most + " tablets, " + emptiest + " " + least);
    }
    return byLoad(p);
  }

  private Move byLoad(Picture p) {
    for (String s : p.targets()) {
      if (p.on(s).stream().anyMatch(t -> !t.hasRate())) {
        return null; // a tablet that just moved: its rate is not measured yet
      }
    }
    Comparator<String> byLoad = Comparator.<String>comparingDouble(p::load).thenComparing(Comparator.naturalOrder());
    String busiest = p.targets().stream().max(byLoad).orElseThrow();
    String quietest = p.targets().stream().min(byLoad).orElseThrow();
    double hot = p.load(busiest);
    double cold = p.load(quietest);
    if (busiest.equals(quietest) || hot < minRequestsPerSecond || hot <= ratio * cold) {
      return null;
    }
    double gap = hot - cold;
    // When the quietest has as many tablets as the busiest, the count step then moves its coldest
    // tablet away (most likely back to the busiest): count the pair as a swap.
    boolean swap = p.on(busiest).size() <= p.on(quietest).size();
    double back = swap ? p.on(quietest).stream().mapToDouble(Tablet::requestsPerSecond).min().orElse(0) : 0;
    Tablet best = null;
    double bestNet = 0;
    for (Tablet t : p.on(busiest)) {
      double net = t.requestsPerSecond() - back;
      if (net > 0 && net < gap && (best == null || Math.abs(net - gap / 2) < Math.abs(bestNet - gap / 2))) {
        best = t;
        bestNet = net;
      }
    }
    if (best == null) {
      return null; // one tablet carries the whole gap: a split, not a move, can help
    }
    return new Move(best.name(), busiest, quietest, false, String.format("%s serves %.0f requests/s, %s %.0f; the tablet %.0f",
        busiest, hot, quietest, cold, best.requestsPerSecond()));
  }
}
