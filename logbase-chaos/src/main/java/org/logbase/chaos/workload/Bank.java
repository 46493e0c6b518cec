package org.logbase.chaos.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.TableDefinition;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.Row;

/**
 * Bank transfers: each transaction reads two accounts and moves an amount (at most the source's
 * balance) from one to the other; read-only snapshot transactions sum all accounts, by a scan or by
 * one get per account. Snapshot isolation keeps every sum equal to the initial total; a transfer
 * half applied, a torn snapshot or a lost update shows as a wrong sum.
 */
public final class Bank {
  public static final String TABLE = "bank";
  static final String BALANCE = "b";

  private final int accounts;
  private final long initial;

  public Bank(int accounts, long initial) {
    this.accounts = accounts;
    this.initial = initial;
  }

  public long total() {
    return accounts * initial;
  }

  public long initial() {
    return initial;
  }

  public int accounts() {
    return accounts;
  }

  /** Creates the table with the accounts spread over four tablets, and loads them. */
  public void create(LogBaseClient admin) {
    admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("m", BALANCE).build(),
        Bytes.utf8(account(accounts / 4)), Bytes.utf8(account(accounts / 2)), Bytes.utf8(account(3 * accounts / 4)));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < accounts; i++) {
      puts.add(new Put(Bytes.utf8(account(i)), Map.of(BALANCE, encode(initial))));
    }
    admin.table(TABLE).batchPut(puts);
  }

  /** One transfer in a transaction; the caller commits and classifies the outcome. */
  public void transfer(Transaction t, Random rnd) {
    int from = rnd.nextInt(accounts);
    int to = (from + 1 + rnd.nextInt(accounts - 1)) % accounts;
    long a = balance(t.get(TABLE, Bytes.utf8(account(from))), from);
    long b = balance(t.get(TABLE, Bytes.utf8(account(to))), to);
    long amount = Math.min(a, 1 + rnd.nextInt(20));
    t.put(TABLE, Bytes.utf8(account(from)), Map.of(BALANCE, encode(a - amount)));
    t.put(TABLE, Bytes.utf8(account(to)), Map.of(BALANCE, encode(b + amount)));
  }

  /** What one snapshot saw. */
  public record Snapshot(long startTs, boolean byScan, int accountsSeen, long sum, long negative) {}

  /** Sums all accounts in one read-only transaction, by a scan or by one get each. */
  public Snapshot read(LogBaseClient client, boolean byScan) {
    try (Transaction t = client.beginReadOnly()) {
      long sum = 0;
      int seen = 0;
      long negative = 0;
      if (byScan) {
        for (Row r : t.scan(TABLE, ScanSpec.all())) {
          long v = balance(r, -1);
          sum += v;
          seen++;
          negative += v < 0 ? 1 : 0;
        }
      } else {
        for (int i = 0; i < accounts; i++) {
          Row r = t.get(TABLE, Bytes.utf8(account(i)));
          if (r != null) {
            long v = balance(r, i);
            sum += v;
            seen++;
            negative += v < 0 ? 1 : 0;
          }
        }
      }
      return new Snapshot(t.startTimestamp(), byScan, seen, sum, negative);
    }
  }

  /** Whether a snapshot shows every account and the initial total, none negative. */
  public boolean isConsistent(Snapshot s) {
    return s.accountsSeen() == accounts && s.sum() == total() && s.negative() == 0;
  }

  static String account(int i) {
    return String.format("acct-%05d", i);
  }

  static byte[] encode(long v) {
    return Long.toString(v).getBytes(StandardCharsets.UTF_8);
  }

  static long balance(Row r, int account) {
    if (r == null || r.value(BALANCE) == null) {
      throw new IllegalStateException("account " + account + " has no balance");
    }
    return decode(r.value(BALANCE));
  }

  static long decode(byte[] balance) {
    return Long.parseLong(new String(balance, StandardCharsets.UTF_8));
  }
}
