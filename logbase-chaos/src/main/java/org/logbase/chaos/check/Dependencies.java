package org.logbase.chaos.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;

/**
 * Derives the ww, wr and rw edges from the version orders and the committed reads, and checks each
 * read on the way: that it agrees with the version order (incompatible-order), with the transaction's
 * own earlier steps (internal), and that it does not end at another transaction's intermediate state
 * (G1b). A read returns the transaction's snapshot followed by its own appends to the key; only the
 * snapshot part (the external read) yields edges.
 */
final class Dependencies {
  private final VersionOrders orders;
  private final DependencyGraph graph;
  private final Findings findings;

  /** A transaction's own view of one key so far: its last read and its appends. */
  private static final class View {
    List<Long> read;
    final List<Long> appended = new ArrayList<>();
    int appendedAtRead;
  }

  private Dependencies(VersionOrders orders, DependencyGraph graph, Findings findings) {
    this.orders = orders;
    this.graph = graph;
    this.findings = findings;
  }

  static void infer(VersionOrders orders, DependencyGraph graph, Findings findings) {
    Dependencies d = new Dependencies(orders, graph, findings);
    for (KeyOrder k : orders.keys) {
      d.writeWrite(k);
    }
    for (int t = 0; t < orders.history.size(); t++) {
      if (orders.txn(t).outcome() == Outcome.OK) {
        d.reads(t);
      }
    }
  }

  /** Each version's writer precedes the next version's writer. */
  private void writeWrite(KeyOrder k) {
    int previous = -1;
    for (int i = 0; i < k.writerAt.length; i++) {
      int w = k.writerAt[i];
      if (w >= 0 && previous >= 0 && w != previous) {
        graph.add(EdgeType.WW, previous, w, k.id, k.longest.get(i));
      }
      previous = w >= 0 ? w : previous;
    }
  }

  private void reads(int t) {
    Map<KeyOrder, View> views = new HashMap<>();
    for (Mop m : orders.txn(t).mops()) {
      KeyOrder k = orders.key(m.key());
      View view = views.computeIfAbsent(k, x -> new View());
      if (m.isAppend()) {
        view.appended.add(m.value());
      } else if (m.list() != null) {
        checkInternal(t, k, view, m.list());
        read(t, k, m.list(), externalLength(m.list(), view.appended));
        view.read = m.list();
        view.appendedAtRead = view.appended.size();
      }
    }
  }

  /** The length of the snapshot part of a read: the list before the transaction's own values. */
  private static int externalLength(List<Long> list, List<Long> own) {
    if (own.isEmpty()) {
      return list.size();
    }
    if (endsWith(list, own)) {
      return list.size() - own.size();
    }
    Set<Long> mine = new HashSet<>(own);
    for (int i = 0; i < list.size(); i++) {
      if (mine.contains(list.get(i))) {
        return i;
      }
    }
    return list.size();
  }

  private static boolean endsWith(List<Long> list, List<Long> tail) {
    return list.size() >= tail.size() && list.subList(list.size() - tail.size(), list.size()).equals(tail);
  }

  /** A read repeats the transaction's previous read plus its appends since, or ends with all its appends. */
  private void checkInternal(int t, KeyOrder k, View view, List<Long> list) {
    List<Long> since = view.appended.subList(view.appendedAtRead, view.appended.size());
    List<Long> expected = null;
    if (view.read != null) {
      expected = new ArrayList<>(view.read);
      expected.addAll(since);
    }
    if (expected == null ? endsWith(list, view.appended) : list.equals(expected)) {
      return;
    }
    String why = expected == null ? "it lacks the transaction's own appends " + view.appended + " at its end"
        : "its earlier read " + Text.list(view.read) + " and appends " + since + " since imply " + Text.list(expected);
    Txn x = orders.txn(t);
    findings.add(AnomalyType.INTERNAL, () -> Text.name(x) + " read " + k.key + " = " + Text.list(list) + ", but "
        + why + "; " + Text.txn(x), x);
  }

  /** Edges and checks for one committed read whose first ext values are the snapshot. */
  private void read(int t, KeyOrder k, List<Long> list, int ext) {
    int divergence = k.divergence(list);
    if (divergence >= 0) {
      incompatible(t, k, list, divergence);
    }
    int p = -1; // index in the version order of the snapshot's last value
    if (ext > 0) {
      long v = list.get(ext - 1);
      int w = k.writer(v);
      if (w >= 0 && w != t) {
        graph.add(EdgeType.WR, w, t, k.id, v);
        if (k.intermediate(v)) {
          Txn r = orders.txn(t);
          Txn a = orders.txn(w);
          findings.add(AnomalyType.G1B, () -> Text.name(r) + " read " + k.key + " = " + Text.list(list) + " ending at "
              + v + ", an intermediate state: its writer " + Text.name(a) + " appended to " + k.key
              + " again afterwards; reader " + Text.txn(r) + ", writer " + Text.txn(a), r, a);
        }
      }
      p = divergence < 0 || divergence >= ext ? ext - 1 : k.position.get(v);
      if (p < 0) {
        return; // a value outside the version order: no known next version
      }
    }
    int next = k.nextVersion(p);
    if (next >= 0 && k.writerAt[next] != t) {
      graph.add(EdgeType.RW, t, k.writerAt[next], k.id, k.longest.get(next));
    }
  }

  private void incompatible(int t, KeyOrder k, List<Long> list, int at) {
    Txn r = orders.txn(t);
    Txn o = orders.txn(k.longestReader);
    findings.add(AnomalyType.INCOMPATIBLE_ORDER, () -> Text.name(r) + " read " + k.key + " = " + Text.list(list)
        + ", which is not a prefix of " + Text.list(k.longest) + " read by " + Text.name(o) + " (they differ at index "
        + at + "); reader " + Text.txn(r) + ", other reader " + Text.txn(o), r, o);
    Set<Long> distinct = new HashSet<>();
    boolean duplicates = false;
    for (long v : list) {
      if (!distinct.add(v) && !duplicates) {
        duplicates = true;
        orders.checkDuplicates(t, k, list, v);
      }
      if (k.position.get(v) < 0) {
        orders.checkValue(t, k, list, v);
      }
    }
  }
}
