package org.logbase.chaos.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.TableDefinition;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.Row;

/**
 * Single-row writes outside transactions (one-row puts, and batch puts that the client coalesces):
 * every key is written once; each acknowledged write must be read back, with its value, after the
 * run. Unacknowledged ones may or may not be there.
 */
public final class Writes {
  public static final String TABLE = "w";
  static final String VALUE = "v";

  public static void createTable(LogBaseClient admin) {
    admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("d", VALUE).build(),
        Bytes.utf8("w-1"), Bytes.utf8("w-2"), Bytes.utf8("w-3"));
  }

  /** The key of write {@code n} of {@code process}: processes spread over the tablets. */
  public static String key(int process, long n) {
    return "w-" + (process % 4) + "-" + process + "-" + n;
  }

  /** Writes one row; returns once it is acknowledged (throws if it may not be durable). */
  public static void putOne(LogBaseClient client, String key) {
    client.table(TABLE).put(Bytes.utf8(key), Map.of(VALUE, value(key)));
  }

  /** Writes several rows in one batch put. */
  public static void putBatch(LogBaseClient client, List<String> keys) {
    List<Put> puts = new ArrayList<>();
    for (String k : keys) {
      puts.add(new Put(Bytes.utf8(k), Map.of(VALUE, value(k))));
    }
    client.table(TABLE).batchPut(puts);
  }

  /** Acknowledged keys missing after the run, or holding another value. */
  public static List<String> lost(LogBaseClient client, List<String> acknowledged) {
    Map<String, byte[]> stored = new HashMap<>();
    try (Transaction t = client.beginReadOnly()) {
      for (Row r : t.scan(TABLE, ScanSpec.all())) {
        stored.put(new String(r.key(), StandardCharsets.UTF_8), r.value(VALUE));
      }
    }
    List<String> lost = new ArrayList<>();
    for (String k : acknowledged) {
      byte[] v = stored.get(k);
      if (v == null || !Arrays.equals(v, value(k))) {
        lost.add(k);
      }
    }
    return lost;
  }

  private static byte[] value(String key) {
    return ("value-of-" + key).getBytes(StandardCharsets.UTF_8);
  }
}
