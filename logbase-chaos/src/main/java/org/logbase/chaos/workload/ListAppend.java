package org.logbase.chaos.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.logbase.chaos.history.Mop;
import org.logbase.chaos.history.Outcome;
import org.logbase.chaos.history.Txn;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.TableDefinition;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.Row;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;

/**
 * The list-append workload (after Jepsen's Elle): each transaction reads some keys and appends
 * unique values to others; a key's value is the list of everything appended to it, so every read
 * shows the order of the writes before it, and the checker can rebuild the dependency graph.
 *
 * <p>An append is a read of the list and a write of the list with the value added, in one
 * transaction (LogBase has no server-side append); the read is recorded too. Keys live for a few
 * seconds each in a window that slides with time, so lists stay short and new keys keep meeting
 * every tablet (their names start with a hash, the table is split by it).
 */
public final class ListAppend {
  public static final String TABLE = "la";
  static final String COLUMN = "l";
  /** Split keys: key names start with two hex digits of a hash, so 8 tablets share the keys. */
  static final String[] SPLITS = {"20", "40", "60", "80", "a0", "c0", "e0"};

  private final RunClock clock;
  private final long windowStepNanos;
  private final int windowWidth;

  /**
   * @param windowStepMillis the window of active keys moves by one key this often
   * @param windowWidth how many keys are active at a time
   */
  public ListAppend(RunClock clock, long windowStepMillis, int windowWidth) {
    this.clock = clock;
    this.windowStepNanos = windowStepMillis * 1_000_000;
    this.windowWidth = windowWidth;
  }

  public static void createTable(LogBaseClient admin) {
    byte[][] splits = new byte[SPLITS.length][];
    for (int i = 0; i < SPLITS.length; i++) {
      splits[i] = Bytes.utf8(SPLITS[i]);
    }
    admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("g", COLUMN).build(), splits);
  }

  /** The name of key number {@code id}: a hash prefix spreads consecutive keys over the tablets. */
  static String keyName(long id) {
    long h = id * 0x9E3779B97F4A7C15L;
    return String.format("%02x-%d", (h >>> 56) & 0xff, id);
  }

  /** Nanoseconds since the run began, on the history's clock. */
  public long now() {
    return clock.now();
  }

  /** Plans a transaction: 1 to 4 steps on keys of the current window, appends with unique values. */
  public List<Mop> plan(Random rnd, ValueSource values) {
    long first = clock.now() / windowStepNanos;
    int n = 1 + rnd.nextInt(4);
    List<Mop> mops = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String key = keyName(first + rnd.nextInt(windowWidth));
      mops.add(rnd.nextBoolean() ? Mop.read(key, null) : Mop.append(key, values.next()));
    }
    return mops;
  }

  /** Unique values for appends: a process's id in the high bits, a counter below. */
  public static final class ValueSource {
    private final long base;
    private long next;

    public ValueSource(int process) {
      this.base = (long) process << 32;
    }

    public long next() {
      return base | ++next;
    }
  }

  /**
   * Runs a planned transaction and returns what the client saw. Reads of a key the transaction
   * appended to see its own list; the read an append makes of a key it has not seen yet is
   * recorded as a read step before the append.
   */
  public Txn run(LogBaseClient client, long id, int process, List<Mop> plan, long invoke) {
    List<Mop> done = new ArrayList<>();
    Map<String, List<Long>> view = new HashMap<>();
    Transaction t = null;
    try {
      t = client.begin();
      for (Mop m : plan) {
        List<Long> current = view.get(m.key());
        if (current == null) {
          current = decode(t.get(TABLE, Bytes.utf8(m.key())));
          done.add(Mop.read(m.key(), current));
        } else if (!m.isAppend()) {
          done.add(Mop.read(m.key(), current));
        }
        if (m.isAppend()) {
          List<Long> next = new ArrayList<>(current);
          next.add(m.value());
          t.put(TABLE, Bytes.utf8(m.key()), Map.of(COLUMN, encode(next)));
          current = next;
          done.add(m);
        }
        view.put(m.key(), current);
      }
    } catch (RuntimeException e) {
      // Failed while reading (a dead server, no timestamp): nothing was sent for commit.
      if (t != null) {
        t.abort();
      }
      return new Txn(id, process, invoke, clock.now(), Outcome.FAIL, plan);
    }
    try {
      t.commit();
      return new Txn(id, process, invoke, clock.now(), Outcome.OK, done);
    } catch (TransactionConflictException | TransactionAbortedException e) {
      return new Txn(id, process, invoke, clock.now(), Outcome.FAIL, done);
    } catch (RuntimeException e) {
      // A server died during the commit: it may have committed.
      return new Txn(id, process, invoke, -1, Outcome.INFO, done);
    }
  }

  /**
   * The final read: one read-only transaction reads every key any transaction appended to (a key
   * with no row reads as the empty list).
   */
  public Txn finalRead(LogBaseClient client, long id, int process, Set<String> keys) {
    long invoke = clock.now();
    Map<String, List<Long>> stored = new TreeMap<>();
    try (Transaction t = client.beginReadOnly()) {
      for (Row r : t.scan(TABLE, ScanSpec.all())) {
        stored.put(new String(r.key(), StandardCharsets.UTF_8), decode(r));
      }
    }
    List<Mop> mops = new ArrayList<>();
    for (String k : new TreeSet<>(keys)) {
      mops.add(Mop.read(k, stored.getOrDefault(k, List.of())));
    }
    return new Txn(id, process, invoke, clock.now(), Outcome.OK, mops);
  }

  static byte[] encode(List<Long> list) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < list.size(); i++) {
      b.append(i == 0 ? "" : ",").append(list.get(i));
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  static List<Long> decode(Row r) {
    List<Long> out = new ArrayList<>();
    if (r == null || r.value(COLUMN) == null) {
      return out;
    }
    String s = new String(r.value(COLUMN), StandardCharsets.UTF_8);
    if (!s.isEmpty()) {
      for (String v : s.split(",")) {
        out.add(Long.parseLong(v));
      }
    }
    return out;
  }
}
