package org.logbase.chaos.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;

/** Small builders for hand-written histories, and a serial simulation that generates large valid ones. */
final class Histories {
  private Histories() {}

  static Mop a(String key, long value) {
    return Mop.append(key, value);
  }

  static Mop r(String key, long... values) {
    return Mop.read(key, Arrays.stream(values).boxed().toList());
  }

  /** A read whose result the client never learnt. */
  static Mop unknown(String key) {
    return Mop.read(key, null);
  }

  static Txn ok(long id, long invoke, long complete, Mop... mops) {
    return new Txn(id, (int) id, invoke, complete, Outcome.OK, List.of(mops));
  }

  static Txn fail(long id, long invoke, long complete, Mop... mops) {
    return new Txn(id, (int) id, invoke, complete, Outcome.FAIL, List.of(mops));
  }

  static Txn info(long id, long invoke, Mop... mops) {
    return new Txn(id, (int) id, invoke, -1, Outcome.INFO, List.of(mops));
  }

  /**
   * A history of a serializable database: transactions run one after another on an in-memory map of
   * lists (each at its own commit point, 1,000 ns apart), while the clients' invoke and completion
   * times overlap around those points; 2% fail (not applied), 1% end unknown (half of them applied,
   * with unknown reads). A final read-only transaction reads every key.
   */
  static List<Txn> serial(long seed, int count, int keys) {
    Random random = new Random(seed);
    List<List<Long>> db = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      db.add(List.of());
    }
    long[] appended = new long[keys];
    int processes = 32;
    long[] freeAt = new long[processes];
    int[] label = new int[processes];
    Arrays.setAll(label, p -> p);
    List<Txn> history = new ArrayList<>(count + 1);
    long last = 0;
    for (int i = 0; i < count; i++) {
      long commit = 1_000L * (i + 10);
      long invoke = commit - random.nextInt(4_000);
      long complete = commit + 1 + random.nextInt(4_000);
      int p = 0;
      while (freeAt[p] >= invoke) {
        p++; // 32 processes are plenty: at most about 9 transactions overlap
      }
      double fate = random.nextDouble();
      Outcome outcome = fate < 0.02 ? Outcome.FAIL : fate < 0.03 ? Outcome.INFO : Outcome.OK;
      Map<Integer, List<Long>> mine = new HashMap<>();
      List<Mop> mops = new ArrayList<>();
      for (int m = 1 + random.nextInt(7); m > 0; m--) {
        int k = random.nextInt(keys);
        if (random.nextBoolean()) {
          long value = ++appended[k];
          mine.computeIfAbsent(k, x -> new ArrayList<>(db.get(x))).add(value);
          mops.add(Mop.append("k" + k, value));
        } else {
          List<Long> view = mine.containsKey(k) ? List.copyOf(mine.get(k)) : db.get(k);
          mops.add(Mop.read("k" + k, outcome == Outcome.INFO ? null : view));
        }
      }
      if (outcome == Outcome.OK || (outcome == Outcome.INFO && fate < 0.025)) {
        mine.forEach((k, list) -> db.set(k, List.copyOf(list)));
      }
      freeAt[p] = complete;
      history.add(new Txn(i, label[p], invoke, outcome == Outcome.INFO ? -1 : complete, outcome, mops));
      if (outcome == Outcome.INFO) {
        label[p] += processes; // a client that lost track of a transaction goes on as a new process
      }
      last = Math.max(last, complete);
    }
    history.add(finalRead(count, last + 1_000, db));
    return history;
  }

  /**
   * A history of a strong snapshot-isolation database: each transaction reads the versions committed
   * before it began, commits when it ends unless a transaction that committed meanwhile appended to a
   * key it appends to (first committer wins; then it fails). Such histories have write skew (allowed)
   * but nothing forbidden. 1% end unknown (committed, with unknown reads).
   */
  static List<Txn> snapshotIsolation(long seed, int count, int keys) {
    Random random = new Random(seed);
    List<TreeMap<Long, List<Long>>> versions = new ArrayList<>(); // per key: commit time to list
    for (int k = 0; k < keys; k++) {
      versions.add(new TreeMap<>(Map.of(0L, List.of())));
    }
    long[] appended = new long[keys];
    long[][] times = new long[count][];
    for (int i = 0; i < count; i++) {
      long invoke = 1_000L * (i + 1) + random.nextInt(1_000);
      times[i] = new long[] {invoke, invoke + 1 + random.nextInt(10_000), i};
    }
    Arrays.sort(times, (x, y) -> Long.compare(x[1], y[1])); // commit in completion order
    List<Txn> history = new ArrayList<>(count + 1);
    for (long[] t : times) {
      long invoke = t[0];
      boolean unknown = random.nextInt(100) == 0;
      Map<Integer, List<Long>> mine = new HashMap<>();
      List<Mop> mops = new ArrayList<>();
      for (int m = 1 + random.nextInt(7); m > 0; m--) {
        int k = random.nextInt(keys);
        List<Long> snapshot = versions.get(k).lowerEntry(invoke).getValue();
        if (random.nextBoolean()) {
          long value = ++appended[k];
          mine.computeIfAbsent(k, x -> new ArrayList<>(snapshot)).add(value);
          mops.add(Mop.append("k" + k, value));
        } else {
          mops.add(Mop.read("k" + k, unknown ? null : mine.containsKey(k) ? List.copyOf(mine.get(k)) : snapshot));
        }
      }
      boolean conflict = mine.keySet().stream().anyMatch(k -> versions.get(k).lastKey() >= invoke);
      if (!conflict) {
        mine.forEach((k, list) -> versions.get(k).put(t[1], List.copyOf(list)));
      }
      Outcome outcome = conflict ? Outcome.FAIL : unknown ? Outcome.INFO : Outcome.OK;
      history.add(new Txn(t[2], (int) t[2], invoke, unknown ? -1 : t[1], outcome, mops));
    }
    List<List<Long>> db = versions.stream().map(v -> v.lastEntry().getValue()).toList();
    history.add(finalRead(count, times[count - 1][1] + 1_000, db));
    return history;
  }

  private static Txn finalRead(long id, long invoke, List<List<Long>> db) {
    List<Mop> reads = new ArrayList<>();
    for (int k = 0; k < db.size(); k++) {
      reads.add(Mop.read("k" + k, db.get(k)));
    }
    return new Txn(id, -1, invoke, invoke + 1_000, Outcome.OK, reads);
  }
}
