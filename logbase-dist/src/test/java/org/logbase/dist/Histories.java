package org.logbase.dist;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.common.Row;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;

/**
 * The multiversion histories of the LogBase paper's section 3.7.1, run against a live cluster. Each
 * method plays one history and reports whether its anomaly happened. Keys of a history live on
 * different tablet servers: the table is split at "h" and "p" and its three tablets are assigned
 * to three servers.
 *
 * <p>A history runs with a {@link Variant}: the real transactions, or a deliberately broken client
 * (reads at the newest version instead of the snapshot, or writes sent at once instead of buffered)
 * that shows the history can observe its anomaly. The server-side broken variants (validation off,
 * readers that ignore locks) are cluster settings; see {@link BrokenIsolationTest}.
 */
final class Histories {
  static final String TABLE = "iso";
  static final String COLUMN = "v";

  /** How a history's transactions read and write. */
  enum Variant {
    /** The product: snapshot reads, buffered writes. */
    SNAPSHOT,
    /** Broken: reads see the newest committed versions instead of the snapshot. */
    READS_LATEST,
    /** Broken: writes are applied at once instead of at commit. */
    WRITES_IMMEDIATELY
  }

  private final LogBaseClient client;
  private final Table table;

  Histories(LogBaseClient client) {
    this.client = client;
    this.table = client.table(TABLE);
  }

  /** Creates the table over three tablets and checks that each is on a different server. */
  static void createTable(LogBaseClient client) {
    client.admin().createTable(TableDefinition.builder(TABLE).columnGroup("g", COLUMN).build(),
        Bytes.utf8("h"), Bytes.utf8("p"));
    TableDescription d = client.admin().describeTable(TABLE);
    long servers = d.tablets().stream().map(TabletInfo::serverId).distinct().count();
    if (servers != 3) {
      throw new AssertionError("the three tablets should be on three servers: " + d.tablets());
    }
  }

  /** A transaction of the given variant. */
  final class Txn implements AutoCloseable {
    final Transaction inner;
    final Variant variant;

    Txn(Variant variant) {
      this.variant = variant;
      this.inner = client.begin();
    }

    Long get(byte[] key) {
      Row r = variant == Variant.READS_LATEST ? table.get(key) : inner.get(TABLE, key);
      return value(r);
    }

    List<Row> scan() {
      return variant == Variant.READS_LATEST ? scanAll(table) : inner.scan(TABLE, ScanSpec.all());
    }

    void put(byte[] key, long v) {
      if (variant == Variant.WRITES_IMMEDIATELY) {
        table.put(key, Map.of(COLUMN, encode(v)));
      } else {
        inner.put(TABLE, key, Map.of(COLUMN, encode(v)));
      }
    }

    /** True if it committed, false on a conflict or abort. */
    boolean commit() {
      try {
        inner.commit();
        return true;
      } catch (TransactionConflictException | TransactionAbortedException e) {
        return false;
      }
    }

    @Override
    public void close() {
      inner.close();
    }
  }

  Txn begin(Variant v) {
    return new Txn(v);
  }

  // ------------------------------------------------------------------ the histories

  /** w1[x1] ... r2[x0] ... c1: T2 must not see T1's uncommitted write. */
  boolean dirtyRead(Variant v, String name) {
    byte[] x = key("a", name);
    set(x, 0);
    try (Txn t1 = begin(v)) {
      t1.put(x, 1);
      Long seen;
      try (Txn t2 = begin(Variant.SNAPSHOT)) {
        seen = t2.get(x);
      }
      t1.inner.abort();
      return seen != 0;
    }
  }

  /** r1[x0] ... w2[x2] c2 ... r1[x]: T1 must read x0 again. */
  boolean fuzzyRead(Variant v, String name) {
    byte[] x = key("a", name);
    set(x, 10);
    try (Txn t1 = begin(v)) {
      long first = t1.get(x);
      try (Txn t2 = begin(Variant.SNAPSHOT)) {
        t2.put(x, first + 5);
        require(t2.commit(), "T2 commits");
      }
      long second = t1.get(x);
      return first != second;
    }
  }

  /**
   * r1[x0] ... w2[x2] w2[y2] c2 ... r1[y]: T1 must see x and y of one state (sum 100). y is T2's
   * primary row, so T2's write of it is visible the moment T2's commit returns (secondaries are
   * committed asynchronously): the broken variant then sees the skew every time.
   */
  boolean readSkew(Variant v, String name) {
    byte[] x = key("i", name);
    byte[] y = key("a", name);
    set(x, 50);
    set(y, 50);
    try (Txn t1 = begin(v)) {
      long rx = t1.get(x);
      try (Txn t2 = begin(Variant.SNAPSHOT)) {
        t2.put(x, 25);
        t2.put(y, 75); // on another server: two-phase commit
        require(t2.commit(), "T2 commits");
      }
      long ry = t1.get(y);
      return rx + ry != 100;
    }
  }

  /** r1[P] ... w2[y2 in P] c2 ... r1[P]: T1's second scan must return the same rows. */
  boolean phantom(Variant v, String name) {
    set(key("a", name), 1);
    set(key("i", name), 1);
    try (Txn t1 = begin(v)) {
      long before = count(t1.scan(), name);
      try (Txn t2 = begin(Variant.SNAPSHOT)) {
        t2.put(key("q", name), 1); // a new row in the predicate's range, on the third server
        require(t2.commit(), "T2 commits");
      }
      long after = count(t1.scan(), name);
      return before != after;
    }
  }

  /**
   * w1[x1] w1[y1] w2[x2] w2[y2] c1 c2: two concurrent writers of the same rows may not both commit
   * (the second committer fails). Also checks the survivor's writes are all there.
   */
  boolean dirtyWrite(Variant v, String name) {
    byte[] x = key("a", name);
    byte[] y = key("i", name);
    set(x, 0);
    set(y, 0);
    try (Txn t1 = begin(v); Txn t2 = begin(v)) {
      t1.put(x, 1);
      t1.put(y, 1);
      t2.put(x, 2);
      t2.put(y, 2);
      boolean c1 = t1.commit();
      // T1's secondary is decided after its commit returns: let its lock go first, so that what
      // refuses T2 is validation (a version newer than T2's start), not a lock still held.
      awaitNoLocks();
      boolean c2 = t2.commit();
      require(c1, "the first committer wins");
      long fx = read(x);
      long fy = read(y);
      require(fx == fy, "x and y come from one transaction: " + fx + ", " + fy);
      return c2;
    }
  }

  /** Waits until no tablet server of the table holds a row lock. */
  private void awaitNoLocks() {
    LockTables.awaitEmpty(client.admin().describeTable(TABLE).tablets().stream()
        .map(TabletInfo::address).distinct().toList(), java.time.Duration.ofSeconds(20));
  }

  /** r1[x0] r2[x0] w2[x0+1] c2 w1[x0+1] c1: T1 must fail, else one increment is lost. */
  boolean lostUpdate(Variant v, String name) {
    byte[] x = key("a", name);
    set(x, 0);
    try (Txn t1 = begin(v); Txn t2 = begin(v)) {
      long a1 = t1.get(x);
      long a2 = t2.get(x);
      t2.put(x, a2 + 1);
      require(t2.commit(), "T2 commits");
      t1.put(x, a1 + 1);
      boolean c1 = t1.commit();
      return c1 && read(x) == 1;
    }
  }

  /**
   * r1[x0] r2[y0] w1[y1] w2[x2] c1 c2 with the constraint x + y >= 0 checked by each: under
   * snapshot isolation both commit and the constraint breaks (the documented trade-off).
   */
  boolean writeSkew(String name) {
    byte[] x = key("a", name);
    byte[] y = key("i", name);
    set(x, 50);
    set(y, 50);
    try (Txn t1 = begin(Variant.SNAPSHOT); Txn t2 = begin(Variant.SNAPSHOT)) {
      boolean ok1 = t1.get(x) + t1.get(y) >= 100;
      boolean ok2 = t2.get(x) + t2.get(y) >= 100;
      if (ok1) {
        t1.put(y, t1.get(y) - 100);
      }
      if (ok2) {
        t2.put(x, t2.get(x) - 100);
      }
      return t1.commit() && t2.commit() && read(x) + read(y) < 0;
    }
  }

  /**
   * The snapshot-read rule. T2 writes x and y (two servers) and stops after taking its commit
   * timestamp, before committing its primary. T1 begins after that, so T2's commit timestamp is below
   * T1's snapshot: T1's read of x must not return before T2 is decided, or a second read could see a
   * version the first did not. With the rule, T1 waits until T2 is in doubt and its primary aborts
   * it. Also checks that a prepared, undecided write is invisible to a plain read meanwhile.
   *
   * @param paused a second client whose commits stop at the commit timestamp
   * @return whether T1's two reads of x differed
   */
  boolean unrepeatableUnderPreparedWriter(LogBaseClient paused, String name, AtomicReference<Throwable> t2Outcome)
      throws Exception {
    byte[] x = key("a", name);
    byte[] y = key("i", name);
    set(x, 0);
    set(y, 0);
    CountDownLatch atCommitTs = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    paused.setFaultInjector(point -> {
      if (point.equals("txn.commit-timestamp")) {
        atCommitTs.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    CompletableFuture<Void> t2 = CompletableFuture.runAsync(() -> {
      try (Transaction t = paused.begin()) {
        t.put(TABLE, x, Map.of(COLUMN, encode(1)));
        t.put(TABLE, y, Map.of(COLUMN, encode(1)));
        t.commit();
        t2Outcome.set(null);
      } catch (LogBaseException e) {
        t2Outcome.set(e);
      }
    });
    try {
      require(atCommitTs.await(60, TimeUnit.SECONDS), "T2 reached its commit timestamp");
      require(value(table.get(x)) == 0, "a prepared write is invisible to readers");
      try (Transaction t1 = client.begin()) {
        long first = value(t1.get(TABLE, x));
        release.countDown();
        t2.get(60, TimeUnit.SECONDS);
        long second = value(t1.get(TABLE, x));
        return first != second;
      }
    } finally {
      release.countDown();
      paused.setFaultInjector(org.logbase.common.FaultInjector.NONE);
    }
  }

  // ------------------------------------------------------------------ helpers

  static byte[] key(String serverPrefix, String name) {
    return Bytes.utf8(serverPrefix + "/" + name);
  }

  static byte[] encode(long v) {
    return Long.toString(v).getBytes(StandardCharsets.UTF_8);
  }

  static Long value(Row r) {
    return r == null || r.value(COLUMN) == null ? null : Long.parseLong(new String(r.value(COLUMN), StandardCharsets.UTF_8));
  }

  private void set(byte[] key, long v) {
    table.put(key, Map.of(COLUMN, encode(v)));
  }

  /** The committed value now, read at a fresh snapshot: it waits for secondaries still being committed. */
  private long read(byte[] key) {
    try (Transaction snapshot = client.beginReadOnly()) {
      return value(snapshot.get(TABLE, key));
    }
  }

  private static long count(List<Row> rows, String name) {
    return rows.stream().filter(r -> new String(r.key(), StandardCharsets.UTF_8).endsWith("/" + name)).count();
  }

  private static void require(boolean condition, String what) {
    if (!condition) {
      throw new AssertionError("history broke an assumption: " + what);
    }
  }

  private static List<Row> scanAll(Table table) {
    List<Row> out = new java.util.ArrayList<>();
    try (var s = table.scan(ScanSpec.all())) {
      s.forEach(out::add);
    }
    return out;
  }
}
