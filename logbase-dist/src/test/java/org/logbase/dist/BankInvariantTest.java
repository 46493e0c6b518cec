package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.TableDefinition;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.common.Row;
import org.logbase.testing.Await;
import org.logbase.testing.ChildProcess;

/**
 * The bank invariant under failures. 8 clients move money between 1,000 accounts on 3 tablet
 * servers (processes) for a fixed number of transfers; meanwhile a tablet server is killed with
 * kill -9 and restarted, and a client process is killed between prepare and commit. Afterwards the
 * total is unchanged, every transfer reported committed is visible (and nothing else), no lock is
 * left behind, and every snapshot read taken during the run summed correctly.
 */
class BankInvariantTest {
  static final String TABLE = "bank";
  static final String BALANCE = "balance";
  static final int ACCOUNTS = 1000;
  static final long INITIAL = 1000;
  static final int CLIENTS = 8;
  static final int TRANSFERS_PER_CLIENT = 60;

  @TempDir Path dir;

  /** One transfer: the marker row it writes proves whether it committed. */
  record Transfer(String id, int from, int to, long amount) {}

  @Test
  void totalIsConservedAcrossServerAndClientCrashes() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 3, false, Map.of("txn.lock.ttl.ms", "2000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect())) {
      admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("money", BALANCE).build(),
          Bytes.utf8(account(ACCOUNTS / 3)), Bytes.utf8(account(2 * ACCOUNTS / 3)));
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ACCOUNTS; i++) {
        puts.add(new Put(Bytes.utf8(account(i)), Map.of(BALANCE, encode(INITIAL))));
      }
      admin.table(TABLE).batchPut(puts);

      ConcurrentLinkedQueue<Transfer> committed = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<Transfer> unknown = new ConcurrentLinkedQueue<>();
      AtomicInteger done = new AtomicInteger();
      AtomicBoolean running = new AtomicBoolean(true);
      List<Long> snapshotTotals = new java.util.concurrent.CopyOnWriteArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int clientId = c;
        clients.add(pool.submit(() -> {
          try (LogBaseClient client = LogBaseClient.connect(cluster.zkConnect())) {
            Random rnd = new Random(clientId);
            for (int n = 0; n < TRANSFERS_PER_CLIENT; n++) {
              int from = rnd.nextInt(ACCOUNTS);
              int to = (from + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
              Transfer t = new Transfer("xfer-" + clientId + "-" + n, from, to, 1 + rnd.nextInt(50));
              try {
                client.inTransaction(txn -> transfer(txn, t));
                committed.add(t);
              } catch (LogBaseException e) {
                // A server died under the commit: it may or may not have committed.
                unknown.add(t);
              }
              done.incrementAndGet();
            }
          }
          return null;
        }));
      }
      Future<?> reader = pool.submit(() -> {
        try (LogBaseClient client = LogBaseClient.connect(cluster.zkConnect())) {
          while (running.get()) {
            try (Transaction snapshot = client.beginReadOnly()) {
              snapshotTotals.add(total(snapshot));
            } catch (LogBaseException e) {
              // A server is down; the next snapshot tries again.
            }
          }
        }
        return null;
      });

      int total = CLIENTS * TRANSFERS_PER_CLIENT;
      awaitProgress(done, total / 4);
      ChildProcess hung = cluster.start(PrepareAndHang.class, "hung-client", cluster.zkConnect(), TABLE,
          account(10), account(ACCOUNTS - 10), "xfer-hung");
      hung.await(l -> l.startsWith("PREPARED"), Duration.ofSeconds(60));
      hung.kill9();

      awaitProgress(done, total / 2);
      cluster.tabletServers.get("ts2").kill9();
      long killedAt = System.nanoTime();
      cluster.startTabletServer("ts2").await(l -> l.startsWith("TABLETSERVER READY"), LocalCluster.START);
      System.out.printf("BANK: ts2 killed and back in %d ms%n", (System.nanoTime() - killedAt) / 1_000_000);

      for (Future<?> f : clients) {
        f.get(5, TimeUnit.MINUTES);
      }
      running.set(false);
      reader.get(2, TimeUnit.MINUTES);
      pool.shutdown();

      awaitNoLocks(cluster);
      try (Transaction end = admin.beginReadOnly()) {
        Map<String, Long> balances = balances(end);
        assertEquals(ACCOUNTS, balances.size(), "every account is there");
        assertEquals(ACCOUNTS * INITIAL, balances.values().stream().mapToLong(Long::longValue).sum(), "total unchanged");

        long[] expected = new long[ACCOUNTS];
        java.util.Arrays.fill(expected, INITIAL);
        int unknownCommitted = 0;
        for (Transfer t : committed) {
          Row marker = end.get(TABLE, Bytes.utf8(t.id()));
          assertNotNull(marker, "committed transfer " + t + " is visible");
          apply(expected, t, balance(marker));
        }
        for (Transfer t : unknown) {
          Row marker = end.get(TABLE, Bytes.utf8(t.id()));
          if (marker != null) {
            apply(expected, t, balance(marker));
            unknownCommitted++;
          }
        }
        for (int i = 0; i < ACCOUNTS; i++) {
          assertEquals(expected[i], balances.get(account(i)), "balance of " + account(i));
        }
        assertNull(end.get(TABLE, Bytes.utf8("xfer-hung")), "the client killed before its commit did not commit");
        assertTrue(snapshotTotals.size() > 0, "snapshots were read during the run");
        for (long s : snapshotTotals) {
          assertEquals(ACCOUNTS * INITIAL, s, "a snapshot taken during the run sums to the total");
        }
        System.out.printf("BANK: %d committed, %d outcome unknown to the client (%d of them committed), %d snapshot sums%n",
            committed.size(), unknown.size(), unknownCommitted, snapshotTotals.size());
      }
    }
  }

  /** Moves the amount if the source has it; writes the marker row either way (the transfer's fact). */
  static Void transfer(Transaction txn, Transfer t) {
    long from = balance(txn.get(TABLE, Bytes.utf8(account(t.from()))));
    long to = balance(txn.get(TABLE, Bytes.utf8(account(t.to()))));
    long amount = Math.min(t.amount(), from);
    txn.put(TABLE, Bytes.utf8(account(t.from())), Map.of(BALANCE, encode(from - amount)));
    txn.put(TABLE, Bytes.utf8(account(t.to())), Map.of(BALANCE, encode(to + amount)));
    txn.put(TABLE, Bytes.utf8(t.id()), Map.of(BALANCE, encode(amount)));
    return null;
  }

  /** The amount moved is capped by the balance at the time; the marker row records it. */
  private static void apply(long[] balances, Transfer t, long moved) {
    balances[t.from()] -= moved;
    balances[t.to()] += moved;
  }

  static String account(int i) {
    return String.format("acct-%04d", i);
  }

  static byte[] encode(long v) {
    return Long.toString(v).getBytes(StandardCharsets.UTF_8);
  }

  static long balance(Row r) {
    if (r == null) {
      throw new AssertionError("account row missing");
    }
    return Long.parseLong(new String(r.value(BALANCE), StandardCharsets.UTF_8));
  }

  private static Map<String, Long> balances(Transaction txn) {
    Map<String, Long> out = new HashMap<>();
    for (Row r : txn.scan(TABLE, ScanSpec.builder().start(Bytes.utf8("acct-")).end(Bytes.utf8("acct."))
        .build())) {
      out.put(new String(r.key(), StandardCharsets.UTF_8), balance(r));
    }
    return out;
  }

  private static long total(Transaction txn) {
    return balances(txn).values().stream().mapToLong(Long::longValue).sum();
  }

  private static void awaitProgress(AtomicInteger done, int atLeast) {
    Await.until(Duration.ofMinutes(3), "clients reach " + atLeast + " transfers",
        () -> done.get() >= atLeast);
  }

  /** Every tablet server's lock table empties (in-doubt transactions resolve after the TTL). */
  private static void awaitNoLocks(LocalCluster cluster) {
    LockTables.awaitEmpty(cluster.tabletServers.keySet().stream().map(cluster::tabletServerAddress).toList(),
        Duration.ofSeconds(60));
  }
}
