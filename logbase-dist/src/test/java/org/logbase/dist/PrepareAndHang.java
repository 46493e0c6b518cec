package org.logbase.dist;

import java.util.Map;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;

/**
 * A client that dies between prepare and commit: it moves money between two accounts on different
 * servers, prints {@code PREPARED <txn>} once every participant is prepared, and hangs there until
 * the test kills it with kill -9. Its locks stay behind until the primary resolves it as aborted.
 *
 * <p>Arguments: zookeeper connect string, table, from account, to account, marker row.
 */
public final class PrepareAndHang {
  private PrepareAndHang() {}

  public static void main(String[] args) throws Exception {
    LogBaseClient client = LogBaseClient.connect(args[0]);
    String table = args[1];
    Transaction txn = client.begin();
    client.setFaultInjector(point -> {
      if (point.equals("txn.prepared")) {
        System.out.println("PREPARED " + txn.startTimestamp());
        System.out.flush();
        try {
          new java.util.concurrent.CountDownLatch(1).await(); // hang here until kill -9
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    long from = BankInvariantTest.balance(txn.get(table, Bytes.utf8(args[2])));
    long to = BankInvariantTest.balance(txn.get(table, Bytes.utf8(args[3])));
    txn.put(table, Bytes.utf8(args[2]), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(from - 1)));
    txn.put(table, Bytes.utf8(args[3]), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(to + 1)));
    txn.put(table, Bytes.utf8(args[4]), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(1)));
    txn.commit();
    System.out.println("COMMITTED (the test expected this client to hang)");
  }
}
