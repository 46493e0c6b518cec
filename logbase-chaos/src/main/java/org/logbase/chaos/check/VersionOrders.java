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
 * Infers every key's version order from the committed reads and checks the values in it: a value
 * nobody appended (garbage), one an aborted transaction appended (G1a), one listed twice, and
 * acknowledged appends missing from the last read of their key (lost writes). Also decides which
 * transactions are graph nodes: the committed ones and those of unknown outcome whose appends were
 * read (so they committed).
 */
final class VersionOrders {
  final List<Txn> history;
  final List<KeyOrder> keys = new ArrayList<>();
  private final Map<String, KeyOrder> byName = new HashMap<>();
  private final boolean[] observed;
  private final Findings findings;

  VersionOrders(List<Txn> history, Findings findings) {
    this.history = history;
    this.findings = findings;
    this.observed = new boolean[history.size()];
    collect();
    for (KeyOrder k : keys) {
      order(k);
    }
  }

  KeyOrder key(String name) {
    return byName.computeIfAbsent(name, n -> {
      KeyOrder k = new KeyOrder(keys.size(), n);
      keys.add(k);
      return k;
    });
  }

  Txn txn(int index) {
    return history.get(index);
  }

  /** Committed, or of unknown outcome but read by a committed transaction. */
  boolean isNode(int t) {
    Outcome o = history.get(t).outcome();
    return o == Outcome.OK || (o == Outcome.INFO && observed[t]);
  }

  /** Checks a value a committed transaction read: someone appended it, and not an aborted transaction. */
  void checkValue(int reader, KeyOrder k, List<Long> list, long v) {
    int w = k.writer(v);
    Outcome o = w < 0 ? null : history.get(w).outcome();
    if (o == Outcome.INFO) {
      observed[w] = true;
    } else if (o != Outcome.OK && k.firstReport(v)) {
      Txn r = txn(reader);
      if (w < 0) {
        findings.add(AnomalyType.GARBAGE_READ, () -> Text.name(r) + " read " + k.key + " = " + Text.list(list)
            + " holding " + v + ", which no transaction appended; reader " + Text.txn(r), r);
      } else {
        Txn a = txn(w);
        findings.add(AnomalyType.G1A, () -> Text.name(r) + " read " + k.key + " = " + Text.list(list) + " holding " + v
            + ", appended by " + Text.name(a) + " which failed (aborted read); reader " + Text.txn(r)
            + ", writer " + Text.txn(a), r, a);
      }
    }
  }

  void checkDuplicates(int reader, KeyOrder k, List<Long> list, long v) {
    Txn r = txn(reader);
    findings.add(AnomalyType.DUPLICATE_ELEMENTS, () -> Text.name(r) + " read " + k.key + " = " + Text.list(list)
        + " in which " + v + " appears more than once; reader " + Text.txn(r), r);
  }

  /** An acknowledged append is missing from its key's last read, which began after the append was acknowledged. */
  void reportLostWrites() {
    for (KeyOrder k : keys) {
      if (k.lastReader < 0) {
        continue;
      }
      Txn reader = txn(k.lastReader);
      boolean prefix = k.divergence(k.lastRead) < 0;
      Set<Long> members = prefix ? null : new HashSet<>(k.lastRead);
      for (int s = 0; s < k.writes.capacity(); s++) {
        int w = k.writes.valueAt(s) >>> 1;
        if (k.writes.valueAt(s) < 0 || history.get(w).outcome() != Outcome.OK
            || history.get(w).completeNanos() >= reader.invokeNanos()) {
          continue;
        }
        long v = k.writes.keyAt(s);
        int p = k.position.get(v);
        if (prefix ? p < 0 || p >= k.lastRead.size() : !members.contains(v)) {
          Txn a = txn(w);
          findings.add(AnomalyType.LOST_WRITE, () -> Text.name(a) + " appended " + v + " to " + k.key
              + " and was acknowledged at " + a.completeNanos() + ", but " + Text.name(reader) + " (invoked at "
              + reader.invokeNanos() + ") read " + k.key + " = " + Text.list(k.lastRead) + " without it; writer "
              + Text.txn(a) + ", reader " + Text.txn(reader), a, reader);
        }
      }
    }
  }

  /** One pass over the history: writers of values, the longest and the last committed read per key. */
  private void collect() {
    Map<KeyOrder, Long> lastAppend = new HashMap<>();
    for (int t = 0; t < history.size(); t++) {
      Txn x = history.get(t);
      boolean ok = x.outcome() == Outcome.OK;
      for (Mop m : x.mops()) {
        KeyOrder k = key(m.key());
        if (m.isAppend()) {
          Long previous = lastAppend.put(k, m.value());
          if (previous != null) {
            k.writes.put(previous, t << 1 | 1);
          }
          k.writes.put(m.value(), t << 1);
        } else if (ok && m.list() != null) {
          if (m.list().size() > k.longest.size()) {
            k.longest = m.list();
            k.longestReader = t;
          }
          if (k.lastReader < 0 || x.invokeNanos() > txn(k.lastReader).invokeNanos()
              || (x.invokeNanos() == txn(k.lastReader).invokeNanos() && m.list().size() > k.lastRead.size())) {
            k.lastRead = m.list();
            k.lastReader = t;
          }
        }
      }
      lastAppend.clear();
    }
  }

  /** Indexes the version order, checks its values, and notes which committed transaction wrote each. */
  private void order(KeyOrder k) {
    List<Long> order = k.longest;
    k.writerAt = new int[order.size()];
    boolean duplicates = false;
    for (int i = 0; i < order.size(); i++) {
      long v = order.get(i);
      k.writerAt[i] = -1;
      if (k.position.putIfAbsent(v, i) >= 0) {
        if (!duplicates) {
          checkDuplicates(k.longestReader, k, order, v);
        }
        duplicates = true;
        continue;
      }
      checkValue(k.longestReader, k, order, v);
      int w = k.writer(v);
      if (w >= 0 && isNode(w)) {
        k.writerAt[i] = w;
      }
    }
  }
}
