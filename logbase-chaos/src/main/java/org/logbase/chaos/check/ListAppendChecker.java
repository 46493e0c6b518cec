package org.logbase.chaos.check;

import java.util.List;
import org.logbase.chaos.history.Txn;

/**
 * Checks a list-append history for the anomalies (strong) snapshot isolation forbids, the way Elle
 * does. Because every append adds a unique value to the end of a key's list, a committed read reveals
 * the whole order of the versions before it; so the longest committed read of each key is its version
 * order, every other read must be a prefix of it, and from the orders and reads follow the ww, wr and
 * rw dependencies between transactions. Real-time edges (a transaction acknowledged before another
 * began precedes it) are added too, since the database claims strong snapshot isolation. Snapshot
 * isolation forbids every dependency cycle except those with two adjacent rw edges (write skew), so the
 * cycles are searched in the strongly connected components of the graph and classified after Adya.
 *
 * <p>A transaction of unknown outcome counts as committed once a committed read saw one of its values;
 * its own reads are never trusted. Failed transactions are left out of the graph.
 */
public final class ListAppendChecker {
  /**
   * How to check.
   *
   * @param realtime add real-time edges (strong snapshot isolation); off, stale reads are allowed
   * @param maxCyclesPerType stop searching a cycle class after this many witnesses
   * @param maxExamplesPerType anomalies kept (with explanations) per type; all are counted
   * @param searchBudget edge visits each cycle class may spend before its search gives up
   */
  public record Options(boolean realtime, int maxCyclesPerType, int maxExamplesPerType, long searchBudget) {
    public static Options defaults() {
      return new Options(true, 10, 100, 5_000_000L);
    }

    public Options withRealtime(boolean on) {
      return new Options(on, maxCyclesPerType, maxExamplesPerType, searchBudget);
    }
  }

  private ListAppendChecker() {}

  public static Result check(List<Txn> history) {
    return check(history, Options.defaults());
  }

  public static Result check(List<Txn> history, Options options) {
    Findings findings = new Findings(options.maxExamplesPerType());
    VersionOrders orders = new VersionOrders(history, findings);
    DependencyGraph graph = new DependencyGraph(history.size());
    Dependencies.infer(orders, graph, findings);
    orders.reportLostWrites();
    if (options.realtime()) {
      RealtimeEdges.add(orders, graph);
    }
    graph.freeze(orders::isNode);
    int[] component = new int[history.size()];
    List<int[]> components = StronglyConnected.find(graph, -1, null, component);
    new CycleSearch(orders, graph, component, findings, options).run(components);
    return findings.result();
  }
}
