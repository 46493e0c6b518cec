package org.logbase.dist;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.TransactionConflictException;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.common.Row;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Java-client part of {@code bin/logbase demo}: loads rows with batch puts, scans them back
 * across all tablets, and spot-checks gets; with {@code --verify-only} it only checks what an
 * earlier run wrote (after a tablet server was killed and restarted, for example).
 */
@Command(name = "client-demo", mixinStandardHelpOptions = true)
public final class ClientDemo implements Callable<Integer> {
  @Option(names = "--zookeeper", description = "ZooKeeper connect string (default: ${DEFAULT-VALUE}).")
  String zookeeper = "localhost:2181";

  @Option(names = "--table", description = "Table with columns name and visits (default: ${DEFAULT-VALUE}).")
  String table = "demo";

  @Option(names = "--rows", description = "Rows to write (default: ${DEFAULT-VALUE}).")
  int rows = 10_000;

  @Option(names = "--verify-only", description = "Do not write; check the rows an earlier run wrote.")
  boolean verifyOnly;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ClientDemo()).execute(args));
  }

  static String key(int i) {
    return String.format("row%06d", i);
  }

  static byte[] value(int i) {
    return ("visits-of-" + key(i)).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Swaps the names of the first and the last row (on different tablets) in one transaction, and
   * shows first-committer-wins: of two transactions writing one row, the second to commit fails.
   */
  private boolean transactions(LogBaseClient client) {
    byte[] first = key(0).getBytes(StandardCharsets.UTF_8);
    byte[] last = key(rows - 1).getBytes(StandardCharsets.UTF_8);
    long ts = client.inTransaction(txn -> {
      byte[] a = txn.get(table, first).value("name");
      byte[] b = txn.get(table, last).value("name");
      txn.put(table, first, Map.of("name", b));
      txn.put(table, last, Map.of("name", a));
      return txn.startTimestamp();
    });
    Row swapped = client.table(table).get(first);
    if (!Arrays.equals(("user " + (rows - 1)).getBytes(StandardCharsets.UTF_8), swapped.value("name"))) {
      System.out.println("client: transaction result missing");
      return false;
    }
    System.out.printf("client: transaction %d swapped the names of %s and %s atomically%n", ts, key(0), key(rows - 1));
    try (Transaction t1 = client.begin(); Transaction t2 = client.begin()) {
      t1.put(table, first, Map.of("name", "first writer".getBytes(StandardCharsets.UTF_8)));
      t2.put(table, first, Map.of("name", "second writer".getBytes(StandardCharsets.UTF_8)));
      t1.commit();
      try {
        t2.commit();
        System.out.println("client: two transactions wrote the same row and both committed: WRONG");
        return false;
      } catch (TransactionConflictException e) {
        System.out.println("client: of two transactions writing the same row, the second to commit was refused"
            + " (first committer wins)");
      }
    }
    return true;
  }

  @Override
  public Integer call() {
    try (LogBaseClient client = LogBaseClient.connect(zookeeper)) {
      Table t = client.table(table);
      if (!verifyOnly) {
        long t0 = System.nanoTime();
        List<Put> batch = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          batch.add(Put.of(key(i).getBytes(StandardCharsets.UTF_8), Map.of(
              "name", ("user " + i).getBytes(StandardCharsets.UTF_8), "visits", value(i))));
          if (batch.size() == 500 || i == rows - 1) {
            t.batchPut(batch);
            batch.clear();
          }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("client: wrote %d rows (two column groups each) in %.2f s, %.0f rows/s%n", rows, s, rows / s);
      }
      long t1 = System.nanoTime();
      int seen = 0;
      try (Scanner sc = t.scan(ScanSpec.builder().start("row".getBytes(StandardCharsets.UTF_8))
          .end("rox".getBytes(StandardCharsets.UTF_8)).build())) {
        for (Row r : sc) {
          int i = Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8).substring(3));
          if (!Arrays.equals(value(i), r.value("visits"))) {
            System.out.println("client: WRONG value in row " + key(i));
            return 1;
          }
          seen++;
        }
      }
      double s = (System.nanoTime() - t1) / 1e9;
      System.out.printf("client: scanned %d rows across all tablets in key order in %.2f s%n", seen, s);
      Random rnd = new Random(7);
      for (int n = 0; n < 200; n++) {
        int i = rnd.nextInt(rows);
        Row r = t.get(key(i).getBytes(StandardCharsets.UTF_8));
        if (r == null || !Arrays.equals(value(i), r.value("visits"))) {
          System.out.println("client: row " + key(i) + " missing or wrong");
          return 1;
        }
      }
      System.out.println("client: 200 random gets returned exactly what was written");
      if (!verifyOnly && !transactions(client)) {
        return 1;
      }
      return seen == rows ? 0 : 1;
    }
  }
}
