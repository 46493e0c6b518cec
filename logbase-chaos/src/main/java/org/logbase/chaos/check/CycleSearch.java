package org.logbase.chaos.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.logbase.chaos.history.Txn;

/**
 * Finds witness cycles inside strongly connected components, one class at a time. Each class is a
 * breadth-first search that closes a cycle through a start edge of one type, over the edge types the
 * class allows, with a little state per node when the class needs it (was the last edge rw, was an rw
 * or a real-time edge used). A realtime class is searched only where the same class did not close
 * without real time, and write skew (allowed) only where nothing forbidden was found. Every witness is
 * classified by the edges it actually has. When a class's start edge type is among its path types, its
 * cycles lie inside components of the subgraph of those types, so only start edges inside such a
 * component are tried (this makes the searches for G0 and G1c exact and linear). The work is bounded:
 * a number of witnesses per class, and a budget of edge visits per class.
 */
final class CycleSearch {
  private static final int LAST_RW = 1;
  private static final int PATH_RW = 2;
  private static final int SEEN_RT = 4;
  private static final int STATES = 8;

  private record Spec(AnomalyType type, EdgeType start, int path, boolean nonAdjacent, boolean needRealtime) {
    Spec(AnomalyType type, EdgeType start, boolean nonAdjacent, boolean needRealtime, EdgeType... path) {
      this(type, start, Arrays.stream(path).mapToInt(EdgeType::bit).sum(), nonAdjacent, needRealtime);
    }

    int tracked() {
      return (nonAdjacent ? LAST_RW | PATH_RW : 0) | (needRealtime ? SEEN_RT : 0);
    }

    /** Whether a path reaching the start edge's source in this state closes a cycle of the class. */
    boolean closes(int bits) {
      return (!nonAdjacent || (bits & (LAST_RW | PATH_RW)) == PATH_RW) && (!needRealtime || (bits & SEEN_RT) != 0);
    }
  }

  private static final EdgeType WW = EdgeType.WW;
  private static final EdgeType WR = EdgeType.WR;
  private static final EdgeType RW = EdgeType.RW;
  private static final EdgeType RT = EdgeType.RT;
  private static final List<Spec> SPECS = List.of(
      new Spec(AnomalyType.G0, WW, false, false, WW),
      new Spec(AnomalyType.G1C, WR, false, false, WW, WR),
      new Spec(AnomalyType.G_SINGLE, RW, false, false, WW, WR),
      new Spec(AnomalyType.G_NONADJACENT, RW, true, false, WW, WR, RW),
      new Spec(AnomalyType.G0_REALTIME, RT, false, true, WW, RT),
      new Spec(AnomalyType.G1C_REALTIME, WR, false, true, WW, WR, RT),
      new Spec(AnomalyType.G_SINGLE_REALTIME, RW, false, true, WW, WR, RT),
      new Spec(AnomalyType.G_NONADJACENT_REALTIME, RW, true, true, WW, WR, RW, RT),
      new Spec(AnomalyType.G2_ITEM, RW, false, false, WW, WR, RW),
      new Spec(AnomalyType.G2_ITEM_REALTIME, RW, false, true, WW, WR, RW, RT));

  private final VersionOrders orders;
  private final DependencyGraph graph;
  private final int[] component;
  private final Findings findings;
  private final ListAppendChecker.Options options;
  private final long[] budget = new long[SPECS.size()];
  private final int[] local;
  private final Map<Integer, int[]> regions = new HashMap<>(); // by path types: subgraph components
  private final Map<Integer, boolean[]> regionsWithRealtime = new HashMap<>();
  private int[] members;
  private int[] region;
  private int regionId;
  private int stamp;
  private int[] seen = new int[0];
  private int[] parentState = new int[0];
  private int[] parentEdge = new int[0];
  private int[] queue = new int[0];
  private int[] targetMark = new int[0];
  private int[] targetEdge = new int[0];

  CycleSearch(VersionOrders orders, DependencyGraph graph, int[] component, Findings findings,
      ListAppendChecker.Options options) {
    this.orders = orders;
    this.graph = graph;
    this.component = component;
    this.findings = findings;
    this.options = options;
    this.local = new int[graph.nodes()];
    Arrays.fill(budget, options.searchBudget());
  }

  void run(List<int[]> components) {
    for (int[] c : components) {
      searchComponent(c);
    }
  }

  private void searchComponent(int[] nodes) {
    members = nodes;
    for (int i = 0; i < nodes.length; i++) {
      local[nodes[i]] = i;
    }
    if (seen.length < nodes.length * STATES) {
      int n = Math.max(nodes.length * STATES, seen.length * 2);
      seen = new int[n];
      parentState = new int[n];
      parentEdge = new int[n];
      queue = new int[n];
      targetMark = new int[n / STATES];
      targetEdge = new int[n / STATES];
      stamp = 0;
    }
    Set<AnomalyType> found = EnumSet.noneOf(AnomalyType.class);
    for (int s = 0; s < SPECS.size(); s++) {
      Spec spec = SPECS.get(s);
      boolean skip = spec.type().forbidden() ? found.contains(spec.type().base()) : !found.isEmpty();
      if (skip || (spec.needRealtime() && !options.realtime()) || budget[s] <= 0) {
        continue;
      }
      if (findings.count(spec.type()) >= options.maxCyclesPerType()) {
        findings.truncate(spec.type());
        continue;
      }
      int[] cycle = search(s, spec);
      if (cycle != null) {
        AnomalyType type = classify(cycle);
        found.add(type.base());
        if (findings.count(type) < options.maxCyclesPerType()) {
          findings.add(type, () -> explain(cycle), txns(cycle));
        } else {
          findings.truncate(type);
        }
      }
    }
  }

  /**
   * The components where the spec's cycles can lie: those of the subgraph of its path types if that
   * holds its start type, otherwise those of the whole graph.
   */
  private int[] regionsFor(Spec spec) {
    int all = (1 << EdgeType.values().length) - 1;
    if ((spec.path() & spec.start().bit()) == 0 || spec.path() == all) {
      return component;
    }
    return regions.computeIfAbsent(spec.path(), mask -> {
      int[] sub = new int[graph.nodes()];
      int n = StronglyConnected.find(graph, mask, component, sub).size();
      boolean[] realtime = new boolean[n];
      for (int u = 0; u < sub.length; u++) {
        for (int i = graph.first(u); sub[u] >= 0 && i < graph.end(u); i++) {
          realtime[sub[u]] |= graph.typeAt(i) == RT && sub[graph.targetAt(i)] == sub[u];
        }
      }
      regionsWithRealtime.put(mask, realtime);
      return sub;
    });
  }

  /** Tries the spec's start edges inside the component, grouped by target so one search serves them all. */
  private int[] search(int s, Spec spec) {
    region = regionsFor(spec);
    boolean[] realtime = region == component ? null : regionsWithRealtime.get(spec.path());
    long[] starts = new long[16];
    int n = 0;
    for (int u : members) {
      for (int i = graph.first(u); i < graph.end(u); i++) {
        int v = graph.targetAt(i);
        if (graph.typeAt(i) == spec.start() && region[u] >= 0 && region[v] == region[u]
            && (!spec.needRealtime() || realtime == null || realtime[region[u]])) {
          starts = n == starts.length ? Arrays.copyOf(starts, n * 2) : starts;
          starts[n++] = (long) local[v] << 32 | graph.edgeAt(i);
        }
      }
    }
    Arrays.sort(starts, 0, n);
    int init = ((spec.start() == RW ? LAST_RW : 0) | (spec.start() == RT ? SEEN_RT : 0)) & spec.tracked();
    for (int i = 0, j; i < n; i = j) {
      int b = (int) (starts[i] >>> 32);
      stamp++;
      for (j = i; j < n && (int) (starts[j] >>> 32) == b; j++) {
        int e = (int) starts[j];
        targetMark[local[graph.from(e)]] = stamp;
        targetEdge[local[graph.from(e)]] = e;
      }
      regionId = region[members[b]];
      int[] cycle = breadthFirst(s, spec, b * STATES + init);
      if (cycle != null) {
        return cycle;
      }
      if (budget[s] <= 0) {
        findings.note("the search for " + spec.type().label() + " cycles stopped after " + options.searchBudget()
            + " edge visits: some cycles may be unreported");
        return null;
      }
    }
    return null;
  }

  /** Shortest path from a start state back to a marked start edge's source; returns the cycle's edges. */
  private int[] breadthFirst(int s, Spec spec, int start) {
    int head = 0;
    int tail = 0;
    seen[start] = stamp;
    parentEdge[start] = -1;
    queue[tail++] = start;
    while (head < tail && budget[s] > 0) {
      int state = queue[head++];
      int u = members[state / STATES];
      int bits = state % STATES;
      for (int i = graph.first(u); i < graph.end(u); i++) {
        EdgeType t = graph.typeAt(i);
        int v = graph.targetAt(i);
        if ((spec.path() & t.bit()) == 0 || region[v] != regionId
            || (spec.nonAdjacent() && t == RW && (bits & LAST_RW) != 0)) {
          continue;
        }
        budget[s]--;
        int nextBits = ((bits & ~LAST_RW) | (t == RW ? LAST_RW | PATH_RW : 0) | (t == RT ? SEEN_RT : 0))
            & spec.tracked();
        int next = local[v] * STATES + nextBits;
        if (seen[next] == stamp) {
          continue;
        }
        seen[next] = stamp;
        parentState[next] = state;
        parentEdge[next] = graph.edgeAt(i);
        if (targetMark[local[v]] == stamp && spec.closes(nextBits)) {
          int[] cycle = trace(next, targetEdge[local[v]]);
          if (simple(cycle)) {
            return cycle;
          }
        }
        queue[tail++] = next;
      }
    }
    return null;
  }

  private int[] trace(int state, int startEdge) {
    List<Integer> path = new ArrayList<>();
    for (int s = state; parentEdge[s] >= 0; s = parentState[s]) {
      path.add(parentEdge[s]);
    }
    int[] cycle = new int[path.size() + 1];
    cycle[0] = startEdge;
    for (int i = 0; i < path.size(); i++) {
      cycle[i + 1] = path.get(path.size() - 1 - i);
    }
    return cycle;
  }

  /**
   * Whether no transaction repeats. The state search may return a closed walk (around a G-single cycle
   * twice has two non-adjacent rw edges); it proves a violation too, but would be misnamed.
   */
  private boolean simple(int[] cycle) {
    Set<Integer> nodes = new HashSet<>();
    for (int e : cycle) {
      if (!nodes.add(graph.from(e))) {
        return false;
      }
    }
    return true;
  }

  /** Adya's class of a cycle from its edges; -realtime if it uses a real-time edge. */
  private AnomalyType classify(int[] cycle) {
    int rw = 0;
    boolean wr = false;
    boolean rt = false;
    boolean adjacent = false;
    for (int i = 0; i < cycle.length; i++) {
      EdgeType t = graph.type(cycle[i]);
      rw += t == RW ? 1 : 0;
      wr |= t == WR;
      rt |= t == RT;
      adjacent |= t == RW && graph.type(cycle[(i + 1) % cycle.length]) == RW;
    }
    AnomalyType type = rw == 0 ? (wr ? AnomalyType.G1C : AnomalyType.G0)
        : rw == 1 ? AnomalyType.G_SINGLE : adjacent ? AnomalyType.G2_ITEM : AnomalyType.G_NONADJACENT;
    return rt ? type.realtime() : type;
  }

  private Txn[] txns(int[] cycle) {
    Set<Txn> txns = new LinkedHashSet<>();
    for (int e : cycle) {
      txns.add(orders.txn(graph.from(e)));
    }
    return txns.toArray(new Txn[0]);
  }

  private String explain(int[] cycle) {
    StringBuilder chain = new StringBuilder();
    StringBuilder why = new StringBuilder();
    for (int e : cycle) {
      chain.append(Text.name(orders.txn(graph.from(e)))).append(" -").append(graph.type(e).label()).append("-> ");
      why.append("; ").append(describe(e));
    }
    chain.append(Text.name(orders.txn(graph.from(cycle[0]))));
    StringBuilder where = new StringBuilder("; where ");
    Txn[] txns = txns(cycle);
    for (int i = 0; i < txns.length; i++) {
      where.append(i == 0 ? "" : ", ").append(Text.name(txns[i])).append(" = ").append(Text.txn(txns[i]));
    }
    return chain.append(why).append(where).toString();
  }

  private String describe(int e) {
    Txn a = orders.txn(graph.from(e));
    Txn b = orders.txn(graph.to(e));
    if (graph.type(e) == RT) {
      return Text.name(a) + " was acknowledged (at " + a.completeNanos() + ") before " + Text.name(b)
          + " was invoked (at " + b.invokeNanos() + ")";
    }
    KeyOrder k = orders.keys.get(graph.key(e));
    long v = graph.value(e);
    return switch (graph.type(e)) {
      case WW -> Text.name(b) + " appended " + v + " to " + k.key + " right after " + Text.name(a) + "'s "
          + previousValue(k, v, graph.from(e));
      case WR -> Text.name(b) + " read " + k.key + " ending at " + v + ", which " + Text.name(a) + " appended";
      default -> Text.name(a) + " read " + k.key + " before " + v + ", which " + Text.name(b) + " appended next";
    };
  }

  /** The last value w appended before v in the key's version order. */
  private static String previousValue(KeyOrder k, long v, int w) {
    int p = k.position.get(v) - 1;
    while (p >= 0 && k.writerAt[p] != w) {
      p--;
    }
    return p < 0 ? "version" : String.valueOf(k.longest.get(p));
  }
}
