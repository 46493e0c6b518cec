package org.logbase.chaos.check;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;

/**
 * Adds T1 -rt-> T2 whenever T1 was acknowledged before T2 was invoked, without the quadratic number
 * of such pairs: only the frontier (acknowledged transactions no later one is known to follow) is
 * linked to each invoked transaction, and a transaction, once acknowledged, replaces in the frontier
 * the members it was linked from. Every other real-time pair follows by transitivity.
 */
final class RealtimeEdges {
  private RealtimeEdges() {}

  static void add(VersionOrders orders, DependencyGraph graph) {
    int n = orders.history.size();
    int[] invoked = IntStream.range(0, n).filter(orders::isNode).boxed()
        .sorted(Comparator.comparingLong(t -> orders.txn(t).invokeNanos())).mapToInt(Integer::intValue).toArray();
    int[] acknowledged = Arrays.stream(invoked).filter(t -> orders.txn(t).outcome() == Outcome.OK).boxed()
        .sorted(Comparator.comparingLong(t -> orders.txn(t).completeNanos())).mapToInt(Integer::intValue).toArray();
    int[] frontier = new int[16];
    int size = 0;
    int next = 0;
    for (int t : invoked) {
      long at = orders.txn(t).invokeNanos();
      for (; next < acknowledged.length && orders.txn(acknowledged[next]).completeNanos() < at; next++) {
        Txn done = orders.txn(acknowledged[next]);
        int kept = 0;
        for (int i = 0; i < size; i++) {
          if (orders.txn(frontier[i]).completeNanos() >= done.invokeNanos()) {
            frontier[kept++] = frontier[i];
          }
        }
        size = kept;
        if (size == frontier.length) {
          frontier = Arrays.copyOf(frontier, size * 2);
        }
        frontier[size++] = acknowledged[next];
      }
      for (int i = 0; i < size; i++) {
        graph.add(EdgeType.RT, frontier[i], t, -1, 0);
      }
    }
  }
}
