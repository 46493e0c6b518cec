package org.logbase.chaos.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.logbase.client.LogBaseClient;
import org.logbase.client.RowVersion;
import org.logbase.client.ScanSpec;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.LogBaseException;
import org.logbase.common.Row;

/**
 * A hot counter: each transaction reads the counter row, writes it incremented, and writes one
 * marker row for the new value naming the writer. Every transaction has the same primary (the
 * counter row, the first key), and its marker lands on another tablet server: a transaction that
 * loses one half shows as a counter without its marker or a marker without its count.
 */
public final class Counter {
  public static final String TABLE = "ctr";
  static final String VALUE = "v";
  static final String COUNTER = "a-counter";
  /** Versions asked for in one call: the most a server gives. */
  private static final int PAGE = 1000;

  public static void createTable(LogBaseClient admin) {
    admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("c", VALUE).build(),
        Bytes.utf8("m-3"), Bytes.utf8("m-6"));
  }

  /** An increment acknowledged to {@code writer}: its transaction's start and commit timestamps. */
  public record Increment(String writer, long start, long commit) {
    @Override
    public String toString() {
      return writer + " (start " + HybridTimestamp.toString(start) + ", commit " + HybridTimestamp.toString(commit) + ")";
    }
  }

  /** One increment in a transaction, as {@code writer}; the caller commits. Returns the new value. */
  public static long increment(Transaction t, String writer) {
    Row r = t.get(TABLE, Bytes.utf8(COUNTER));
    long next = (r == null ? 0 : decode(r)) + 1;
    t.put(TABLE, Bytes.utf8(COUNTER), Map.of(VALUE, encode(Long.toString(next))));
    t.put(TABLE, Bytes.utf8(marker(next)), Map.of(VALUE, encode(writer)));
    return next;
  }

  /** Marker rows spread over the tablets by their last digit. */
  static String marker(long value) {
    return "m-" + (value % 10) + "-" + value;
  }

  /**
   * What is wrong after the run: the counter must equal the number of markers, the markers must be
   * 1..counter, and every increment acknowledged to its writer must have its marker, naming it, and
   * no other writer. Each wrong increment is told with its writers' timestamps and the versions of
   * the counter and marker rows about it, which show whether two commits both landed (a lost
   * update) or one vanished.
   */
  public static List<String> problems(LogBaseClient client, Map<Long, List<Increment>> acknowledged) {
    Map<Long, String> markers = new HashMap<>();
    long counter = 0;
    try (Transaction t = client.beginReadOnly()) {
      for (Row r : t.scan(TABLE, ScanSpec.all())) {
        String key = new String(r.key(), StandardCharsets.UTF_8);
        if (key.equals(COUNTER)) {
          counter = decode(r);
        } else {
          markers.put(Long.parseLong(key.substring(key.lastIndexOf('-') + 1)),
              new String(r.value(VALUE), StandardCharsets.UTF_8));
        }
      }
    }
    List<String> out = new ArrayList<>();
    if (markers.size() != counter) {
      out.add("counter is " + counter + " but there are " + markers.size() + " markers");
    }
    for (long v = 1; v <= counter; v++) {
      if (!markers.containsKey(v)) {
        out.add("no marker for increment " + v + " (the counter reached it)");
      }
    }
    for (long v : markers.keySet()) {
      if (v > counter) {
        out.add("marker for increment " + v + " above the counter " + counter);
      }
    }
    new TreeMap<>(acknowledged).forEach((v, writers) -> {
      if (writers.size() > 1 || !writers.get(0).writer().equals(markers.get(v))) {
        out.add("increment " + v + " acknowledged to " + writers + " has marker " + markers.get(v) + "; "
            + evidence(client, v));
      }
    });
    return out;
  }

  /** The versions of the counter that hold {@code value} or the one before, and of its marker row. */
  private static String evidence(LogBaseClient client, long value) {
    try {
      Table table = client.table(TABLE);
      List<String> counter = new ArrayList<>();
      // Newest first, a page at a time (a server gives at most 1,000 a call), down to below value - 1.
      long asOf = HybridTimestamp.LATEST;
      for (boolean more = true; more; ) {
        List<RowVersion> page = table.versions(Bytes.utf8(COUNTER), List.of(VALUE), asOf, PAGE);
        more = page.size() == PAGE;
        for (RowVersion rv : page) {
          String v = rv.deleted() ? "deleted" : new String(rv.columns().get(VALUE), StandardCharsets.UTF_8);
          long n = v.matches("[0-9]{1,18}") ? Long.parseLong(v) : -1;
          if (n >= value - 1 && n <= value + 1 || n < 0) {
            counter.add(v + "@" + HybridTimestamp.toString(rv.timestamp()));
          }
          more &= n < 0 || n >= value - 1;
          asOf = rv.timestamp() - 1;
        }
      }
      List<String> marker = new ArrayList<>();
      for (RowVersion rv : table.versions(Bytes.utf8(marker(value)), List.of(VALUE), HybridTimestamp.LATEST, PAGE)) {
        marker.add((rv.deleted() ? "deleted" : new String(rv.columns().get(VALUE), StandardCharsets.UTF_8)) + "@"
            + HybridTimestamp.toString(rv.timestamp()));
      }
      return "counter versions " + counter + ", marker versions " + marker;
    } catch (LogBaseException e) {
      return "versions not read: " + e;
    }
  }

  private static long decode(Row r) {
    return Long.parseLong(new String(r.value(VALUE), StandardCharsets.UTF_8));
  }

  private static byte[] encode(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
