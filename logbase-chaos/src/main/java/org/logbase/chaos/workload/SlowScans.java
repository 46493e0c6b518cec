package org.logbase.chaos.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.TableDefinition;
import org.logbase.common.Bytes;
import org.logbase.common.Row;

/**
 * Scans that stay open on their servers while the table under them is compacted, checkpointed and
 * its log collected: a table of rows whose values never change (each row's value is fixed by its
 * number) but are written again and again, so that compactions keep replacing the table's sorted
 * segments and the log's segments go; a reader scans it whole, slowly (more than a stream's
 * flow-control window ahead of it), with a stream deadline long enough not to end the scan itself.
 * Every scan must return every row, in order, with its value: a file deleted under a scan, or a
 * scan resumed in the wrong place, shows as a missing, repeated or wrong row, or a failed scan.
 */
public final class SlowScans {
  public static final String TABLE = "slow";
  static final String VALUE = "v";
  private static final int VALUE_BYTES = 4096;

  private final int rows;

  /** What one scan found: how many rows, and the first thing wrong (null: nothing). */
  public record Scan(long millis, int rows, String wrong) {}

  public SlowScans(int rows) {
    this.rows = rows;
  }

  /** Creates the table over two tablets and loads every row. */
  public void create(LogBaseClient admin) {
    admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("d", VALUE).build(), key(rows / 2));
    for (int from = 0; from < rows; from += 100) {
      rewrite(admin, from, Math.min(rows, from + 100));
    }
  }

  /** Writes rows {@code [from, to)} again, with the values they always have. */
  public void rewrite(LogBaseClient client, int from, int to) {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      puts.add(new Put(key(i), Map.of(VALUE, value(i))));
    }
    client.table(TABLE).batchPut(puts);
  }

  /** Rewrites a random run of 20 rows. */
  public void rewriteSome(LogBaseClient client, Random rnd) {
    int from = rnd.nextInt(rows);
    rewrite(client, from, Math.min(rows, from + 20));
  }

  /**
   * Scans the table whole, pausing {@code pauseMs} after every 10 rows; checks every row. Returns
   * null if {@code going} turned false before the end (the run is over).
   */
  public Scan scanSlowly(LogBaseClient client, long pauseMs, BooleanSupplier going) throws InterruptedException {
    long t0 = System.nanoTime();
    int n = 0;
    try (Scanner s = client.table(TABLE).scan(ScanSpec.builder().batchRows(10).build())) {
      while (s.hasNext()) {
        Row r = s.next();
        String wrong = check(r, n);
        if (wrong != null) {
          return new Scan((System.nanoTime() - t0) / 1_000_000, n, wrong);
        }
        n++;
        if (!going.getAsBoolean()) {
          return null;
        }
        if (n % 10 == 0) {
          Thread.sleep(pauseMs); // a slow client: the server holds the scan open meanwhile
        }
      }
    }
    String wrong = n == rows ? null : n + " rows of " + rows;
    return new Scan((System.nanoTime() - t0) / 1_000_000, n, wrong);
  }

  private static String check(Row r, int expected) {
    if (!Arrays.equals(r.key(), key(expected))) {
      return "row " + expected + " expected, got " + Bytes.toStringBinary(r.key());
    }
    if (!Arrays.equals(r.value(VALUE), value(expected))) {
      return "row " + expected + " has a wrong value";
    }
    return null;
  }

  static byte[] key(int i) {
    return Bytes.utf8(String.format("s-%06d", i));
  }

  static byte[] value(int i) {
    byte[] v = new byte[VALUE_BYTES];
    new Random(i).nextBytes(v);
    return v;
  }
}
