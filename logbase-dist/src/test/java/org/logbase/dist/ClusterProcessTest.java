package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Put;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.client.TableDescription;
import org.logbase.common.ColumnNotInSchemaException;
import org.logbase.common.Row;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.ValueTooLargeException;
import org.logbase.common.ZkPaths;
import org.logbase.shell.LogBaseShell;
import org.logbase.testing.ChildProcess;
import org.logbase.ycsb.YcsbCommand;

/**
 * The whole cluster as separate processes: ZooKeeper, 2 masters and 3 tablet servers in child JVMs,
 * HDFS as a MiniDFSCluster. A table is created through the shell's -e mode, 100,000 rows go in
 * through the Java client and come back through scans and gets, bad input gets clear errors, YCSB
 * runs through the binding, and the active master dies with kill -9 while the standby takes over and
 * a client goes on taking timestamps from the oracle.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterProcessTest {
  static final int ROWS = 100_000;
  @TempDir static Path dir;
  static LocalCluster cluster;
  static LogBaseClient client;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = new LocalCluster(dir, 2, 3);
    client = LogBaseClient.connect(cluster.zkConnect());
  }

  @AfterAll
  static void stopCluster() {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String key(int i) {
    return String.format("k%06d", i);
  }

  static byte[] value(int i, String column) {
    return bytes(column + "-" + i + "-" + "v".repeat(i % 50));
  }

  ChildProcess shell(String name, String commands) throws Exception {
    ChildProcess p = cluster.start(LogBaseShell.class, name, "--zookeeper", cluster.zkConnect(), "-e", commands);
    int exit = p.waitFor(Duration.ofSeconds(120));
    assertEquals(0, exit, "shell -e failed: " + p.lines());
    return p;
  }

  @Test
  @Order(1)
  void aTableCreatedFromTheShellTakes100kRowsThroughTheClient() throws Exception {
    ChildProcess sh = shell("shell-create",
        "create items a:title,price b:stock --splits k025000,k050000,k075000; describe items");
    assertTrue(String.join("\n", sh.lines()).contains("items"), sh.lines().toString());

    TableDescription d = client.admin().describeTable("items");
    assertEquals(4, d.tablets().size());
    assertEquals(3, d.tablets().stream().map(t -> t.serverId()).distinct().count(), "tablets spread over 3 servers");

    Table t = client.table("items");
    List<Put> batch = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      batch.add(Put.of(bytes(key(i)), Map.of("title", value(i, "title"), "price", value(i, "price"),
          "stock", value(i, "stock"))));
      if (batch.size() == 1000) {
        t.batchPut(batch);
        batch.clear();
      }
    }
    int n = 0;
    try (Scanner s = t.scan(ScanSpec.all())) {
      for (Row r : s) {
        assertEquals(key(n), new String(r.key(), StandardCharsets.UTF_8), "scan returns every row in key order");
        assertArrayEquals(value(n, "title"), r.value("title"));
        assertArrayEquals(value(n, "stock"), r.value("stock"));
        n++;
      }
    }
    assertEquals(ROWS, n);
    Random rnd = new Random(1);
    for (int k = 0; k < 500; k++) {
      int i = rnd.nextInt(ROWS);
      Row r = t.get(bytes(key(i)));
      assertNotNull(r, key(i));
      assertArrayEquals(value(i, "price"), r.value("price"));
    }
    Row projected = t.get(bytes(key(7)), List.of("stock"), 0);
    assertEquals(List.of("stock"), new ArrayList<>(projected.cells().keySet()));
    assertNull(t.get(bytes("nope"), null, 0));

    ChildProcess reads = shell("shell-read", "get items k000042; scan items --start k099998 --limit 5");
    String out = String.join("\n", reads.lines());
    assertTrue(out.contains("title-42-"), out);
    assertTrue(out.contains("k099999"), out);
  }

  @Test
  @Order(2)
  void badInputGetsClearErrorsAndTheServersStayUp() throws Exception {
    Table missing = client.table("no_such_table");
    assertThrows(TableNotFoundException.class, () -> missing.get(bytes("a")));
    Table t = client.table("items");
    assertThrows(ColumnNotInSchemaException.class, () -> t.put(bytes("a"), Map.of("colour", bytes("red"))));
    assertThrows(ValueTooLargeException.class, () -> t.put(new byte[40_000], Map.of("title", bytes("x"))));
    assertThrows(ValueTooLargeException.class, () -> t.put(bytes("big"), Map.of("title", new byte[9 << 20])));

    for (String id : cluster.tabletServers.keySet()) {
      String[] hp = cluster.tabletServerAddress(id).split(":");
      try (Socket s = new Socket(hp[0], Integer.parseInt(hp[1]))) {
        OutputStream o = s.getOutputStream();
        byte[] junk = new byte[8192];
        new Random(id.hashCode()).nextBytes(junk);
        o.write(junk);
        o.flush();
      }
    }
    t.put(bytes("after-garbage"), Map.of("title", bytes("ok")));
    assertArrayEquals(bytes("ok"), t.get(bytes("after-garbage")).value("title"));
    for (ChildProcess p : cluster.tabletServers.values()) {
      assertTrue(p.isAlive(), "tablet server survived malformed bytes");
    }

    ChildProcess bad = cluster.start(LogBaseShell.class, "shell-bad", "--zookeeper", cluster.zkConnect(),
        "-e", "get no_such_table k1");
    assertTrue(bad.waitFor(Duration.ofSeconds(60)) != 0, "a failed command makes -e exit non-zero");
    String out = String.join("\n", bad.lines()) + java.nio.file.Files.readString(dir.resolve("shell-bad.log"));
    assertTrue(out.contains("ERROR"), out);
    assertTrue(!out.contains("\tat "), "no stack trace: " + out);
  }

  @Test
  @Order(3)
  void ycsbLoadAndWorkloadARunThroughTheBinding() throws Exception {
    String workload = Path.of("../logbase-ycsb/workloads/workloada").toAbsolutePath().toString();
    for (String phase : List.of("load", "run")) {
      ChildProcess y = cluster.start(YcsbCommand.class, "ycsb-" + phase, phase, "-P", workload,
          "-p", "logbase.zookeeper=" + cluster.zkConnect(), "-p", "recordcount=2000", "-p", "operationcount=4000",
          "-threads", "4");
      assertEquals(0, y.waitFor(Duration.ofSeconds(180)), "ycsb " + phase + " exit status");
      String out = String.join("\n", y.lines());
      System.out.println("YCSB " + phase + ":\n" + out);
      assertTrue(out.contains("[OVERALL], Throughput(ops/sec)"), out);
      assertTrue(!out.contains("Return=ERROR"), "no failed operations: " + out);
      assertTrue(out.contains(phase.equals("load") ? "[INSERT], Return=OK, 2000" : "[UPDATE], Return=OK"), out);
    }
  }

  @Test
  @Order(4)
  void theStandbyTakesOverWithin15sAfterKill9OfTheActiveMasterAndTimestampsKeepIncreasing() throws Exception {
    ZkPaths paths = new ZkPaths(ZkPaths.DEFAULT_ROOT);
    String active;
    try (CuratorFramework zk = ClusterCheck.client(cluster.zkConnect())) {
      active = new String(zk.getData().forPath(paths.activeMaster()), StandardCharsets.UTF_8);
    }
    String victim = cluster.masterAt(active);
    TimestampLoad timestamps = new TimestampLoad(client.timestamps(), 4);
    timestamps.awaitEach(100, taken -> true, Duration.ofSeconds(60));

    long t0 = System.nanoTime();
    cluster.masters.get(victim).kill9();
    long killed = System.nanoTime();

    // An admin operation that needs the active master; the client rides through the failover.
    client.admin().createTable(org.logbase.client.TableDefinition.builder("after_failover")
        .columnGroup("g", "c").build());
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("FAILOVER: admin operations worked again %.1f s after kill -9 of the active master %s%n",
        seconds, victim);
    assertTrue(seconds < 15, "standby took over in " + seconds + " s");
    assertTrue(client.admin().listTables().containsAll(List.of("items", "after_failover")));
    Table t = client.table("after_failover");
    t.put(bytes("x"), Map.of("c", bytes("1")));
    assertArrayEquals(bytes("1"), t.get(bytes("x")).value("c"));

    timestamps.awaitEach(100, taken -> taken.startNanos() > killed, Duration.ofSeconds(60));
    List<List<TimestampLoad.Taken>> taken = timestamps.stop();
    TimestampLoad.assertUniqueAndIncreasing(taken);
    List<TimestampLoad.Taken> all = taken.stream().flatMap(List::stream).toList();
    long highestBefore = all.stream().filter(x -> x.endNanos() < t0).mapToLong(TimestampLoad.Taken::ts).max().orElseThrow();
    long lowestAfter = all.stream().filter(x -> x.startNanos() > killed).mapToLong(TimestampLoad.Taken::ts).min()
        .orElseThrow();
    assertTrue(lowestAfter > highestBefore, "a timestamp taken after the kill is below one taken before it");
    System.out.printf("TIMESTAMPS: %d taken by 4 threads; none could be taken for %.1f s around kill -9 of the"
        + " active master%n", all.size(), TimestampLoad.longestGap(taken).toMillis() / 1e3);
  }
}
