package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.Transaction;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.common.Row;
import org.logbase.common.TransactionAbortedException;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.PutRequest;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.testing.Await;
import org.logbase.testing.ChildProcess;

/**
 * Failover of tablet servers that do not come back (issue #11), as separate processes on HDFS: a
 * server killed with kill -9 under a write load, and a server paused with SIGSTOP past its session
 * timeout and then woken. Its tablets must be served by the other servers, every acknowledged write
 * must be readable byte for byte, a transaction it held prepared must be decided, and a paused
 * server that wakes up must answer nothing.
 */
class FailoverTest {
  static final String TABLE = "kv";
  static final int SESSION_MS = 6000;
  static final int WRITERS = 4;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir;

  @Test
  void theTabletsOfAKilledServerAreServedByTheOthersWithEveryAcknowledgedWriteAndItsPreparedTransactionDecided()
      throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 3, true, Map.of("txn.lock.ttl.ms", "5000"));
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        LogBaseClient transactions = LogBaseClient.connect(cluster.zkConnect());
        Load load = new Load(cluster)) {
      TableDescription table = createTable(admin);
      String victim = "ts2";
      List<TabletInfo> victims = tabletsOf(table, victim);
      assertTrue(victims.size() >= 2, "the victim serves tablets: " + table.tablets());
      // A client that commits across the victim and another server before the kill, and not again
      // until the failover is over: it still has the victim's address for those tablets.
      TabletInfo elsewhere = table.tablets().stream().filter(t -> !t.serverId().equals(victim)).findFirst().orElseThrow();
      String onVictim = keyIn(victims.get(0), "txn");
      String onOther = keyIn(elsewhere, "txn");
      transfer(transactions, onVictim, onOther, 1);
      // A transaction left prepared by a client that dies before deciding it: its primary on the
      // victim, a secondary on another server (a transaction on one server commits in one step).
      String a = keyIn(victims.get(0), "hung-a");
      String b = keyIn(table.tablets().stream().filter(t -> !t.serverId().equals(victim)).findFirst().orElseThrow(),
          "hung-b");
      String marker = keyIn(victims.get(1), "hung-marker");
      admin.table(TABLE).put(Bytes.utf8(a), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(100)));
      admin.table(TABLE).put(Bytes.utf8(b), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(100)));

      load.start();
      load.awaitAcked(2000);
      ChildProcess hung = cluster.start(PrepareAndHang.class, "hung-client", cluster.zkConnect(), TABLE, a, b, marker);
      hung.await(l -> l.startsWith("PREPARED"), Duration.ofSeconds(60));
      // At once, well inside the lock TTL: the transaction is still prepared in the victim's log.
      cluster.tabletServers.get(victim).kill9();
      long killed = System.nanoTime();
      hung.kill9();
      long servedMs = awaitAllServedWithout(admin, victim, killed);
      System.out.printf("FAILOVER: the %d tablets of %s were served by the other servers %d ms after kill -9"
          + " (ZooKeeper session timeout %d ms, goal %d ms)%n", victims.size(), victim, servedMs, SESSION_MS,
          SESSION_MS + 5000);
      Await.until(Duration.ofSeconds(30), "a new owner carried the prepared transaction over into its log",
          () -> logOf(cluster, "ts1").contains("carried over into this log")
              || logOf(cluster, "ts3").contains("carried over into this log"));
      // Its next transaction across those tablets: a prepare the dead server never answers aborts it
      // (it was "outcome unknown", and the client went on sending every transaction to the dead
      // server, failing each); the client looks its tables up again, and the next one commits.
      int aborted = 0;
      for (int amount = 2; ; amount++) {
        try {
          transfer(transactions, onVictim, onOther, amount);
          break;
        } catch (TransactionAbortedException e) {
          System.out.println("FAILOVER: a transaction of a client with the dead server's address: " + e.getMessage());
          assertTrue(++aborted <= 2, "the client still sends to the dead server after " + aborted + " aborts: " + e);
        }
      }
      long before = load.acked();
      load.awaitAcked(before + 2000);
      load.stopAndCheck(admin);

      LockTables.awaitEmpty(List.of(cluster.tabletServerAddress("ts1"), cluster.tabletServerAddress("ts3")),
          Duration.ofSeconds(60));
      Row ra = admin.table(TABLE).get(Bytes.utf8(a));
      Row rb = admin.table(TABLE).get(Bytes.utf8(b));
      assertNull(admin.table(TABLE).get(Bytes.utf8(marker)), "the transaction whose client died prepared was aborted");
      assertEquals(100, BankInvariantTest.balance(ra), "its rows are as before");
      assertEquals(100, BankInvariantTest.balance(rb), "its rows are as before");
    }
  }

  @Test
  void aServerPausedPastItsSessionTimeoutAnswersNothingWhenItWakesUpAndItsSuccessorsHoldEveryAcknowledgedWrite()
      throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 3, true, Map.of());
        LogBaseClient admin = LogBaseClient.connect(cluster.zkConnect());
        Load load = new Load(cluster)) {
      TableDescription table = createTable(admin);
      String victim = "ts3";
      List<TabletInfo> victims = tabletsOf(table, victim);
      String address = cluster.tabletServerAddress(victim);
      String probe = keyIn(victims.get(0), "probe");
      admin.table(TABLE).put(Bytes.utf8(probe), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(1)));
      TabletRef ref = TabletRef.newBuilder().setTable(TABLE).setTabletId(victims.get(0).tabletId()).build();
      GetRequest get = GetRequest.newBuilder().setTablet(ref).setKey(ByteString.copyFromUtf8(probe)).build();
      PutRequest put = PutRequest.newBuilder().setTablet(ref).setKey(ByteString.copyFromUtf8(probe))
          .addColumns(ColumnValue.newBuilder().setColumn(BankInvariantTest.BALANCE)
              .setValue(ByteString.copyFrom(BankInvariantTest.encode(3))))
          .build();
      ManagedChannel ch = NettyChannelBuilder.forTarget(address).usePlaintext().build();
      try {
        // The connection is up before the pause, so requests sent during it wait in the socket.
        TabletServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS).get(get);

        load.start();
        load.awaitAcked(2000);
        ChildProcess paused = cluster.tabletServers.get(victim);
        signal(paused, "STOP");
        long stoppedAt = System.nanoTime();
        long servedMs = awaitAllServedWithout(admin, victim, stoppedAt);
        System.out.printf("FAILOVER: the %d tablets of paused %s were served by the other servers %d ms after"
            + " SIGSTOP%n", victims.size(), victim, servedMs);
        // The new owner takes writes the paused server never saw.
        admin.table(TABLE).put(Bytes.utf8(probe), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(2)));
        load.awaitAcked(load.acked() + 1000);

        // Sent while it is stopped: the first thing it reads when it wakes, before its ZooKeeper
        // client can tell it that its session is gone. Its lease must refuse them.
        TabletServiceGrpc.TabletServiceFutureStub stub = TabletServiceGrpc.newFutureStub(ch)
            .withDeadlineAfter(60, TimeUnit.SECONDS);
        var staleRead = stub.get(get);
        var lateWrite = stub.put(put);
        signal(paused, "CONT");
        try {
          fail("the woken server answered a read with its stale state: " + staleRead.get());
        } catch (ExecutionException expected) {
          System.out.println("FAILOVER: the woken server refused a read: " + expected.getCause().getMessage());
        }
        try {
          fail("the woken server acknowledged a write: " + lateWrite.get());
        } catch (ExecutionException expected) {
          System.out.println("FAILOVER: the woken server refused a write: " + expected.getCause().getMessage());
        }
        assertTrue(paused.waitFor(Duration.ofSeconds(60)) != 0, "the woken server stops: its session expired");
      } finally {
        ch.shutdownNow();
      }
      load.stopAndCheck(admin);
      assertEquals(2, BankInvariantTest.balance(admin.table(TABLE).get(Bytes.utf8(probe))),
          "the write taken by the new owner stands");
    }
  }

  private static String logOf(LocalCluster cluster, String process) {
    try {
      return Files.readString(cluster.dir.resolve(process + ".log"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** 8 tablets over 3 servers. */
  static TableDescription createTable(LogBaseClient admin) {
    byte[][] splits = new byte[7][];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = Bytes.utf8("k" + (i + 1));
    }
    return admin.admin().createTable(TableDefinition.builder(TABLE).columnGroup("money", BankInvariantTest.BALANCE)
        .build(), splits);
  }

  /** Sets two balances to {@code amount} in one transaction (its rows on two servers). */
  private static void transfer(LogBaseClient client, String a, String b, int amount) {
    Transaction t = client.begin();
    t.put(TABLE, Bytes.utf8(a), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(amount)));
    t.put(TABLE, Bytes.utf8(b), Map.of(BankInvariantTest.BALANCE, BankInvariantTest.encode(amount)));
    t.commit();
  }

  private static List<TabletInfo> tabletsOf(TableDescription table, String server) {
    return table.tablets().stream().filter(t -> t.serverId().equals(server)).toList();
  }

  /** A key inside the tablet's range. */
  static String keyIn(TabletInfo t, String suffix) {
    return (t.startKey() == null || t.startKey().length == 0 ? "k0" : Bytes.toStringBinary(t.startKey())) + "-" + suffix;
  }

  /**
   * Waits until no tablet is assigned to {@code server} and every tablet answers a read; returns the
   * milliseconds since {@code since}.
   */
  private static long awaitAllServedWithout(LogBaseClient admin, String server, long since) {
    String[] lastFailure = {null};
    Await.until(Duration.ofSeconds(90), "every tablet served by a server other than " + server, () -> {
      TableDescription now = admin.admin().describeTable(TABLE);
      for (TabletInfo t : now.tablets()) {
        if (t.serverId().equals(server) || !t.hasServer()) {
          return false;
        }
      }
      for (TabletInfo t : now.tablets()) {
        try {
          admin.table(TABLE).get(Bytes.utf8(keyIn(t, "served")));
        } catch (LogBaseException e) {
          if (!e.getMessage().equals(lastFailure[0])) {
            lastFailure[0] = e.getMessage();
            System.out.println("FAILOVER: not yet: " + e.getMessage());
          }
          return false;
        }
      }
      return true;
    });
    return (System.nanoTime() - since) / 1_000_000;
  }

  private static void signal(ChildProcess p, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
    assertEquals(0, kill.waitFor(), "kill -" + signal);
  }

  /**
   * Writers putting distinct keys over the whole table, each remembering what was acknowledged; at
   * the end every acknowledged key is read back and compared byte for byte.
   */
  static final class Load implements AutoCloseable {
    private final LocalCluster cluster;
    private final Map<String, byte[]> acked = new ConcurrentHashMap<>();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    private final List<Future<?>> writers = new ArrayList<>();

    Load(LocalCluster cluster) {
      this.cluster = cluster;
    }

    void start() {
      for (int w = 0; w < WRITERS; w++) {
        int id = w;
        writers.add(pool.submit(() -> {
          try (LogBaseClient client = LogBaseClient.connect(cluster.zkConnect())) {
            for (long n = 0; running.get(); n++) {
              String key = "k" + (n % 9) + "-w" + id + "-" + n;
              byte[] value = BankInvariantTest.encode(n * 31 + id);
              try {
                client.table(TABLE).put(Bytes.utf8(key), Map.of(BankInvariantTest.BALANCE, value));
                acked.put(key, value);
              } catch (LogBaseException e) {
                failures.incrementAndGet(); // outcome unknown: not checked
              }
            }
          }
          return null;
        }));
      }
    }

    long acked() {
      return acked.size();
    }

    /** Writes that failed (their outcome unknown) so far. */
    long failures() {
      return failures.get();
    }

    void awaitAcked(long n) {
      Await.until(Duration.ofSeconds(120), n + " acknowledged writes", () -> acked.size() >= n);
    }

    void stopAndCheck(LogBaseClient reader) throws Exception {
      running.set(false);
      for (Future<?> f : writers) {
        f.get(2, TimeUnit.MINUTES);
      }
      int checked = 0;
      for (Map.Entry<String, byte[]> e : acked.entrySet()) {
        Row r = reader.table(TABLE).get(Bytes.utf8(e.getKey()));
        assertNotNull(r, "acknowledged write of " + e.getKey() + " is readable");
        assertArrayEquals(e.getValue(), r.value(BankInvariantTest.BALANCE), "value of " + e.getKey());
        checked++;
      }
      System.out.printf("FAILOVER: %d acknowledged writes read back byte for byte; %d writes failed (outcome unknown)%n",
          checked, failures.get());
    }

    @Override
    public void close() {
      running.set(false);
      pool.shutdownNow();
    }
  }
}
