package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.TableDefinition;
import org.logbase.client.TabletCompaction;
import org.logbase.client.Transaction;
import org.logbase.common.ClusterConfig;
import org.logbase.common.ColumnNotInSchemaException;
import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.ServerBusyException;
import org.logbase.common.SnapshotTooOldException;
import org.logbase.master.MasterServer;
import org.logbase.testing.Await;

/**
 * Compaction in a cluster: a real master, tablet server and clients. Scheduled compactions of a
 * tablet past the unsorted-versions threshold, nobody asking. And a long transaction holds the GC
 * horizon: a client whose
 * transaction stays open past {@code client.snapshot.lease.after.ms} holds its snapshot at the
 * master, the tablet server learns it from the heartbeat answer, and a compaction after the
 * retention window keeps what the transaction reads: it reads the same before and after. A
 * transaction of a client that does not hold its snapshot (lease delay longer than the test) and
 * began earlier is refused with "snapshot too old" after the same compaction: without the hold, the
 * first one would be too. And a compacted tablet scanned through the server, forwards in batches
 * of one row to many blocks, backwards and filtered, gives every value as written while the
 * server sends values straight from the blocks it reuses batch after batch.
 */
class CompactionServerTest {
  static final long RETENTION_MS = 3000;

  @TempDir Path dir;
  TestingServer zk;
  MasterServer master;
  TabletServer server;

  /** ZooKeeper, a master and tablet server ts1 with {@code settings} besides the test's own. */
  void start(Config settings) throws Exception {
    zk = new TestingServer(true);
    master = MasterServer.start(Config.empty().with(ClusterConfig.ZK_CONNECT, zk.getConnectString())
        .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 4000).with("master.snapshot.lease.ms", 2000), "localhost", 0,
        new PrintStream(OutputStream.nullOutputStream()));
    server = new TabletServer();
    server.id = "ts1";
    server.port = 0;
    server.start(Config.empty().with(ClusterConfig.ZK_CONNECT, zk.getConnectString())
        .with(ClusterConfig.ZK_SESSION_TIMEOUT_MS, 4000).with(ClusterConfig.FS_ROOT, dir.toUri().toString())
        .with(TabletServer.HEARTBEAT_MS, 200).with("compaction.retention.ms", RETENTION_MS).withAll(settings));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (master != null) {
      master.close();
    }
    if (zk != null) {
      zk.close();
    }
  }

  @Test
  void aTabletPastTheUnsortedThresholdIsCompactedWithoutBeingAsked() throws Exception {
    start(Config.empty().with("compaction.unsorted.versions", 100).with("compaction.check.interval.ms", 200));
    try (LogBaseClient c = LogBaseClient.connect(zk.getConnectString())) {
      c.admin().createTable(TableDefinition.builder("h").columnGroup("g", "v").build());
      for (int i = 0; i < 300; i++) {
        c.table("h").put(bytes(String.format("r%03d", i % 150)), Map.of("v", bytes("v" + i)));
      }
      Await.until(Duration.ofSeconds(30), "a compaction that nobody asked for", () -> c.admin().clusterStatus().servers()
          .stream().anyMatch(s -> s.load() != null && s.load().lastCompaction().matches("h/0 at .*: \\d+ -> \\d+ bytes.*")));
      for (int i = 150; i < 300; i++) {
        assertArrayEquals(bytes("v" + i), c.table("h").get(bytes(String.format("r%03d", i % 150))).value("v"));
      }
    }
  }

  @Test
  void aHeldSnapshotReadsTheSameAfterACompactionAndAnUnheldOlderOneIsRefused() throws Exception {
    start(Config.empty());
    Config holding = Config.empty().with(ClusterConfig.ZK_CONNECT, zk.getConnectString())
        .with("client.snapshot.lease.after.ms", 300);
    Config notHolding = holding.with("client.snapshot.lease.after.ms", 600_000);
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    try (LogBaseClient a = LogBaseClient.connect(holding); LogBaseClient b = LogBaseClient.connect(notHolding)) {
      a.admin().createTable(TableDefinition.builder("h").columnGroup("g", "v").build());
      a.table("h").put(key, Map.of("v", bytes("v1"))); // retried until the tablet is served
      // A new master keeps everything until it knows the clients' leases (one lease period).
      Await.until(Duration.ofSeconds(30), "compactions with a horizon", () -> compact(a).horizon() > 1);

      Transaction unheld = b.begin();
      assertArrayEquals(bytes("v1"), unheld.get("h", key).value("v"));
      Transaction held = a.begin();
      Row before = held.get("h", key);
      assertArrayEquals(bytes("v1"), before.value("v"));
      a.table("h").put(key, Map.of("v", bytes("v2")));
      a.table("h").put(key, Map.of("v", bytes("v3")));
      long heldWall = HybridTimestamp.wallMillis(held.startTimestamp());
      Await.until(Duration.ofSeconds(30), "the retention window passed the held snapshot",
          () -> System.currentTimeMillis() > heldWall + RETENTION_MS + 500);

      TabletCompaction c = compact(a);
      assertEquals(held.startTimestamp(), c.horizon(), "the horizon stops at the held snapshot: " + c);
      assertTrue(c.versionsDropped() > 0 || c.versionsIn() > 0, c.toString());
      Row after = held.get("h", key);
      assertArrayEquals(before.value("v"), after.value("v"), "the held transaction reads what it read before");
      assertEquals(before.cells().get("v").timestamp(), after.cells().get("v").timestamp());
      assertThrows(SnapshotTooOldException.class, () -> unheld.get("h", key),
          "an older snapshot nobody holds is below the horizon after the compaction");
      held.commit();
      unheld.abort();

      // Released: the next compaction's horizon trails the clock again.
      Await.until(Duration.ofSeconds(30), "the horizon moves on once the snapshot is released",
          () -> compact(a).horizon() > held.startTimestamp());
      assertArrayEquals(bytes("v3"), a.table("h").get(key).value("v"));
    }
  }

  @Test
  void aScanInProgressHoldsItsSnapshotOnItsServerThroughACompaction() throws Exception {
    start(Config.empty());
    int rows = 2000;
    byte[] big = new byte[8 * 1024];
    try (LogBaseClient c = LogBaseClient.connect(zk.getConnectString())) {
      c.admin().createTable(TableDefinition.builder("h").columnGroup("g", "v", "pad").build());
      for (int i = 0; i < rows; i++) {
        c.table("h").put(bytes(String.format("r%04d", i)), Map.of("v", bytes("old"), "pad", big));
      }
      Await.until(Duration.ofSeconds(30), "compactions with a horizon", () -> compact(c).horizon() > 1);

      // Small batches, read slowly: most of the scan is still on the server while the rows change.
      int read = 0;
      try (Scanner scan = c.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
        for (int i = 0; i < 10; i++) {
          assertArrayEquals(bytes("old"), scan.next().value("v"));
          read++;
        }
        long scanWall = System.currentTimeMillis();
        for (int i = 0; i < rows; i++) {
          c.table("h").put(bytes(String.format("r%04d", i)), Map.of("v", bytes("new")));
        }
        Await.until(Duration.ofSeconds(30), "the retention window passed the scan's snapshot",
            () -> System.currentTimeMillis() > scanWall + RETENTION_MS + 500);
        TabletCompaction during = compact(c);
        assertTrue(HybridTimestamp.wallMillis(during.horizon()) <= scanWall,
            "the horizon stops at the scan's snapshot: " + during);
        while (scan.hasNext()) {
          Row r = scan.next();
          assertArrayEquals(bytes("old"), r.value("v"), "row " + read + " as of the scan's snapshot");
          read++;
        }
      }
      assertEquals(rows, read);
      // Ended: the next compaction's horizon trails the clock again, past the overwrites.
      long overwritten = System.currentTimeMillis();
      Await.until(Duration.ofSeconds(30), "the horizon moves on once the scan has ended",
          () -> HybridTimestamp.wallMillis(compact(c).horizon()) > overwritten);
      assertArrayEquals(bytes("new"), c.table("h").get(bytes("r0000")).value("v"));
    }
  }

  @Test
  void aScanIdlePastTheLimitIsClosedByTheServerAndResumedByTheClient() throws Exception {
    start(Config.empty().with("scan.idle.timeout.ms", 1000));
    try (LogBaseClient c = patientClient()) {
      int rows = writePadded(c, 2000);
      try (Scanner scan = c.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
        int read = readRows(scan, 10, 0);
        assertEquals(1, server.readsInProgress(), "the scan is a read in progress while its client waits");
        Await.until(Duration.ofSeconds(20), "the server closes the scan its client stopped reading",
            () -> server.readsInProgress() == 0 && server.scansOpen() == 0);
        read = readRows(scan, Integer.MAX_VALUE, read);
        assertEquals(rows, read, "the client resumed after the last row it had");
      }
      Await.until(Duration.ofSeconds(30), "a scan read to its end ends its read", () -> server.readsInProgress() == 0);
      try (Scanner scan = c.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
        readRows(scan, 3, 0);
      }
      Await.until(Duration.ofSeconds(30), "a scan closed early (its call cancelled) ends its read",
          () -> server.readsInProgress() == 0 && server.scansOpen() == 0);
    }
  }

  @Test
  void aScanOfATabletSplitUnderItIsClosedOnItsServerAndResumedInTheDaughters() throws Exception {
    start(Config.empty()); // idle scans last 60 s: only the split ends this one
    try (LogBaseClient c = patientClient()) {
      int rows = writePadded(c, 2000);
      try (Scanner scan = c.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
        int read = readRows(scan, 10, 0);
        c.admin().splitTablet("h", 0, bytes(String.format("r%04d", rows / 2)));
        Await.until(Duration.ofSeconds(20), "the parent's scan is closed: its files are the daughters' server's now",
            () -> server.readsInProgress() == 0 && server.scansOpen() == 0);
        read = readRows(scan, Integer.MAX_VALUE, read);
        assertEquals(rows, read);
      }
    }
  }

  @Test
  void aScanPastTheServersLimitIsRefusedAndItsClientRetriesUntilOneEnds() throws Exception {
    start(Config.empty().with("scan.max.open", 2));
    try (LogBaseClient c = patientClient();
        LogBaseClient hasty = LogBaseClient.connect(Config.empty().with(ClusterConfig.ZK_CONNECT, zk.getConnectString())
            .with(ClusterConfig.RPC_DEADLINE_MS, 1500))) {
      int rows = writePadded(c, 2000);
      for (int i = 0; i < 3; i++) { // refused after it was admitted: each gives its slot back
        assertThrows(ColumnNotInSchemaException.class, () -> {
          try (Scanner bad = hasty.table("h").scan(ScanSpec.builder().valueEquals("nope", bytes("x")).build())) {
            bad.hasNext();
          }
        });
      }
      assertEquals(0, server.scansOpen(), "no slot held by a scan that failed to begin");
      Scanner first = c.table("h").scan(ScanSpec.builder().batchRows(5).build());
      try (Scanner second = c.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
        int readFirst = readRows(first, 10, 0);
        readRows(second, 10, 0);
        assertEquals(2, server.scansOpen());

        ServerBusyException busy = assertThrows(ServerBusyException.class, () -> {
          try (Scanner third = hasty.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
            third.hasNext();
          }
        });
        assertTrue(busy.getMessage().contains("scan.max.open"), busy.getMessage());
        assertArrayEquals(bytes("old"), c.table("h").get(bytes("r0001")).value("v"), "gets are served meanwhile");
        assertEquals(2, server.scansOpen(), "the refused scan held no slot");

        CompletableFuture<Integer> third = CompletableFuture.supplyAsync(() -> {
          try (Scanner s = c.table("h").scan(ScanSpec.builder().batchRows(5).build())) {
            return readRows(s, Integer.MAX_VALUE, 0);
          }
        });
        assertEquals(rows, readRows(first, Integer.MAX_VALUE, readFirst), "the first scan reads to its end");
        first.close();
        assertEquals(rows, third.get(60, TimeUnit.SECONDS), "the retried scan got the slot the first freed");
      }
      Await.until(Duration.ofSeconds(30), "every scan ended", () -> server.scansOpen() == 0);
    }
  }

  @Test
  void aCompactedTabletScannedThroughTheServerGivesEveryValueAsWritten() throws Exception {
    start(Config.empty().with("sorted.block.cache.bytes", 0)); // every block read, and its array reused
    try (LogBaseClient c = LogBaseClient.connect(zk.getConnectString())) {
      int rows = 3000;
      c.admin().createTable(TableDefinition.builder("r").columnGroup("g", "v", "w").build());
      for (int i = 0; i < rows; i++) {
        c.table("r").put(rowKey(i), Map.of("v", randomValue(i), "w", bytes("w" + i)));
      }
      List<TabletCompaction> done = c.admin().compact("r");
      assertTrue(done.get(0).compacted(), done.get(0).error());
      assertTrue(done.get(0).bytesOut() > rows * 1000L, "every row is in the sorted segment: " + done.get(0));
      for (int batch : new int[] {1, 64, 700}) { // 700 rows of 1,000 bytes: a batch over ten blocks
        int next = 0;
        try (Scanner scan = c.table("r").scan(ScanSpec.builder().batchRows(batch).build())) {
          while (scan.hasNext()) {
            checkRow(scan.next(), next++);
          }
        }
        assertEquals(rows, next, "batches of " + batch);
      }
      int next = rows - 1;
      try (Scanner scan = c.table("r").scan(ScanSpec.builder().reverse(true).limit(2500).batchRows(300).build())) {
        while (scan.hasNext()) {
          checkRow(scan.next(), next--);
        }
      }
      assertEquals(rows - 1 - 2500, next, "the last 2,500 rows, last first");
      byte[] prefix = Arrays.copyOf(randomValue(1234), 3);
      try (Scanner scan = c.table("r").scan(ScanSpec.builder().valuePrefix("v", prefix).columns("w").build())) {
        Row r = scan.next();
        assertArrayEquals(rowKey(1234), r.key());
        assertArrayEquals(bytes("w1234"), r.value("w"));
        assertEquals(List.of("w"), List.copyOf(r.cells().keySet()), "the filter's own column is not sent");
      }
    }
  }

  private static void checkRow(Row r, int i) {
    assertArrayEquals(rowKey(i), r.key());
    assertArrayEquals(randomValue(i), r.value("v"), "row " + i);
    assertArrayEquals(bytes("w" + i), r.value("w"), "row " + i);
  }

  private static byte[] rowKey(int i) {
    return bytes(String.format("k%05d", i));
  }

  /**
   * 1,000 random bytes of row {@code i}'s own: blocks of them are stored raw. (Not a SplittableRandom
   * seeded by i times its gamma: the next row's bytes would be this row's shifted by 8, and LZ4 packs
   * such blocks 20 to 1.)
   */
  private static byte[] randomValue(int i) {
    byte[] v = new byte[1000];
    new Random(i).nextBytes(v);
    return v;
  }

  /** A client whose streams' deadline (10 minutes) ends none of them during a test: the server has to. */
  private LogBaseClient patientClient() {
    return LogBaseClient.connect(Config.empty().with(ClusterConfig.ZK_CONNECT, zk.getConnectString())
        .with(ClusterConfig.RPC_DEADLINE_MS, 600_000));
  }

  /** Table h: rows r0000, r0001, ... of "v" = "old" and 8 KiB of padding, more than a stream's window. */
  private static int writePadded(LogBaseClient c, int rows) {
    c.admin().createTable(TableDefinition.builder("h").columnGroup("g", "v", "pad").build());
    byte[] big = new byte[8 * 1024];
    for (int i = 0; i < rows; i++) {
      c.table("h").put(bytes(String.format("r%04d", i)), Map.of("v", bytes("old"), "pad", big));
    }
    return rows;
  }

  /** Reads up to {@code n} rows, checking they are rows {@code from}, {@code from + 1}, ...; returns the next row's number. */
  private static int readRows(Scanner scan, int n, int from) {
    int next = from;
    while (next - from < n && scan.hasNext()) {
      Row r = scan.next();
      assertArrayEquals(bytes(String.format("r%04d", next)), r.key(), "row " + next);
      assertArrayEquals(bytes("old"), r.value("v"));
      next++;
    }
    return next;
  }

  private static TabletCompaction compact(LogBaseClient c) {
    List<TabletCompaction> out = c.admin().compact("h");
    assertTrue(out.get(0).compacted(), out.get(0).error());
    return out.get(0);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
