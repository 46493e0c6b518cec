package org.logbase.chaos.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.logbase.client.LogBaseClient;
import org.logbase.client.RowVersion;
import org.logbase.client.Table;
import org.logbase.common.Bytes;
import org.logbase.common.HybridTimestamp;

/**
 * The bank's history read back from the accounts' versions, to say which commit broke a total.
 * Every transfer writes its two accounts at one commit timestamp, so the changes of the accounts
 * at any timestamp after the load sum to zero. A timestamp where they do not is a transfer with
 * one half lost (one account changed) or a lost update (an account's change computed from a
 * balance another commit had already replaced). Needs every version since the load: the run sets
 * compaction's retention to longer than itself.
 */
public final class BankLedger {
  private static final int PAGE = 1000;

  /** The changes of the accounts written at one timestamp. */
  public record Commit(long timestamp, Map<Integer, Long> deltas) {
    public long sum() {
      return deltas.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("commit ").append(timestamp).append(" (")
          .append(HybridTimestamp.toString(timestamp)).append("):");
      deltas.forEach((account, d) -> b.append(' ').append(Bank.account(account)).append(d >= 0 ? " +" : " ").append(d));
      return b.append("; sum ").append(sum()).toString();
    }
  }

  /** What the versions show: commits whose changes do not sum to zero, accounts not loaded with the initial balance. */
  public record Findings(List<Commit> unbalanced, List<String> badLoads, int versionsRead) {}

  private BankLedger() {}

  public static Findings read(LogBaseClient client, Bank bank) {
    Table table = client.table(Bank.TABLE);
    Map<Long, Map<Integer, Long>> byTimestamp = new TreeMap<>();
    List<String> badLoads = new ArrayList<>();
    int read = 0;
    for (int a = 0; a < bank.accounts(); a++) {
      List<RowVersion> oldestFirst = versions(table, Bytes.utf8(Bank.account(a)));
      read += oldestFirst.size();
      if (oldestFirst.isEmpty()) {
        badLoads.add(Bank.account(a) + " has no versions");
        continue;
      }
      long previous = balance(oldestFirst.get(0));
      if (previous != bank.initial()) {
        badLoads.add(Bank.account(a) + " was loaded with " + previous + " at "
            + HybridTimestamp.toString(oldestFirst.get(0).timestamp()));
      }
      for (RowVersion v : oldestFirst.subList(1, oldestFirst.size())) {
        long now = balance(v);
        byTimestamp.computeIfAbsent(v.timestamp(), k -> new TreeMap<>()).put(a, now - previous);
        previous = now;
      }
    }
    List<Commit> unbalanced = new ArrayList<>();
    byTimestamp.forEach((ts, deltas) -> {
      Commit c = new Commit(ts, deltas);
      if (c.sum() != 0) {
        unbalanced.add(c);
      }
    });
    return new Findings(unbalanced, badLoads, read);
  }

  /** Every version of the row, oldest first, read newest first a page at a time. */
  private static List<RowVersion> versions(Table table, byte[] key) {
    List<RowVersion> newestFirst = new ArrayList<>();
    long asOf = HybridTimestamp.LATEST;
    while (true) {
      List<RowVersion> page = table.versions(key, List.of(Bank.BALANCE), asOf, PAGE);
      newestFirst.addAll(page);
      if (page.size() < PAGE) {
        break;
      }
      asOf = page.get(page.size() - 1).timestamp() - 1;
    }
    Collections.reverse(newestFirst);
    return newestFirst;
  }

  private static long balance(RowVersion v) {
    if (v.deleted() || v.columns().get(Bank.BALANCE) == null) {
      throw new IllegalStateException("an account version without a balance at " + HybridTimestamp.toString(v.timestamp()));
    }
    return Bank.decode(v.columns().get(Bank.BALANCE));
  }
}
