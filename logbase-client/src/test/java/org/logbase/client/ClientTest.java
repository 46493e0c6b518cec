package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.client.fake.FakeCluster;
import org.logbase.common.Bytes;
import org.logbase.common.ClusterConfig;
import org.logbase.common.ColumnNotInSchemaException;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.Row;
import org.logbase.common.TimestampRequests;
import org.logbase.common.TableExistsException;
import org.logbase.common.TableNotFoundException;

/** The client against fake servers: 2 tablet servers; tables split at "g" and "p" (3 tablets). */
@Timeout(60)
class ClientTest {
  private static FakeCluster cluster;
  private static LogBaseClient client;

  @BeforeAll
  static void start() throws Exception {
    cluster = FakeCluster.start(1, 2);
    client = LogBaseClient.connect(cluster.clientConfig());
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    cluster.close();
  }

  private static Table createTable(String name) {
    client.admin().createTable(
        TableDefinition.builder(name).columnGroup("profile", "name", "email").columnGroup("stats", "visits").build(),
        Bytes.utf8("g"), Bytes.utf8("p"));
    return client.table(name);
  }

  private static byte[] b(String s) {
    return Bytes.utf8(s);
  }

  /** Keys "k000".."k059" are all in the last tablet; spread keys over all three instead. */
  private static List<String> keysOverAllTablets(int n) {
    List<String> keys = new ArrayList<>();
    String[] prefixes = {"a", "h", "q"};
    for (int i = 0; i < n; i++) {
      keys.add(prefixes[i % 3] + String.format("%03d", i));
    }
    return keys;
  }

  private static List<String> load(Table table, int n) {
    List<String> keys = keysOverAllTablets(n);
    List<String> shuffled = new ArrayList<>(keys);
    Collections.shuffle(shuffled, new Random(7));
    List<Put> puts = shuffled.stream().map(k -> Put.of(b(k), Map.of("name", b("v-" + k)))).toList();
    long[] ts = table.batchPut(puts);
    assertEquals(n, ts.length);
    for (long t : ts) {
      assertTrue(t > 0, "every put has a commit timestamp");
    }
    Collections.sort(keys);
    return keys;
  }

  private static List<String> scanKeys(Table table, ScanSpec spec) {
    try (Scanner scanner = table.scan(spec)) {
      return scanner.stream().map(r -> Bytes.utf8(r.key())).toList();
    }
  }

  @Test
  void locatesKeysAcrossThreeTabletsOnTwoServers() {
    Table t = createTable("located");
    TableDescription d = client.admin().describeTable("located");
    assertEquals(3, d.tablets().size());
    assertEquals(Set.of("ts-0", "ts-1"), Set.copyOf(d.tablets().stream().map(TabletInfo::serverId).toList()));

    t.put(b("apple"), Map.of("name", b("A"), "visits", b("1")));
    t.put(b("honey"), Map.of("name", b("H")));
    t.put(b("zebra"), Map.of("email", b("z@x")));

    assertEquals("A", Bytes.utf8(t.get(b("apple")).value("name")));
    assertEquals("1", Bytes.utf8(t.get(b("apple")).value("visits")));
    assertEquals("H", Bytes.utf8(t.get(b("honey")).value("name")));
    assertEquals("z@x", Bytes.utf8(t.get(b("zebra")).value("email")));
    // Each key reached the server its tablet is assigned to.
    for (TabletInfo tablet : d.tablets()) {
      int server = tablet.serverId().equals("ts-0") ? 0 : 1;
      assertTrue(cluster.server(server).tabletsServed().contains(tablet.tabletId()), tablet.toString());
    }
  }

  /**
   * Requests name the table id the client looked the tablet up with. After the table is dropped and
   * created again under its name (a new id), a client whose locations predate that is refused (as a
   * real server refuses it while it still serves the dropped table's tablet), looks the table up
   * again and writes into the new table.
   */
  @Test
  void requestsNameTheTableIdAndARecreatedTableIsLookedUpAgain() {
    Table t = createTable("recreated");
    int first = client.admin().describeTable("recreated").schema().id();
    t.put(b("apple"), Map.of("name", b("old")));
    int second;
    try (LogBaseClient other = LogBaseClient.connect(cluster.clientConfig())) {
      other.admin().dropTable("recreated");
      other.admin().createTable(TableDefinition.builder("recreated").columnGroup("profile", "name", "email")
          .columnGroup("stats", "visits").build(), Bytes.utf8("g"), Bytes.utf8("p"));
      second = other.admin().describeTable("recreated").schema().id();
    }
    assertTrue(second != first);

    t.put(b("apple"), Map.of("name", b("new")));
    assertEquals("new", Bytes.utf8(t.get(b("apple")).value("name")));
    Set<Integer> named = new HashSet<>();
    named.addAll(cluster.server(0).tableIdsNamed());
    named.addAll(cluster.server(1).tableIdsNamed());
    assertTrue(named.containsAll(Set.of(first, second)), "requests named both ids: " + named);
    assertFalse(named.contains(0), "every request named its table id: " + named);
  }

  /**
   * A batch whose rows for one tablet add up to more than a request may carry goes in several
   * requests: 20 rows of 250 KB to one tablet were one request over the limit (here the fake
   * server's 4 MiB, and the client's), refused whole while other tablets' rows were written.
   */
  @Test
  void aBatchLargerThanARequestIsSentInSeveral() {
    createTable("bulky");
    try (LogBaseClient small = LogBaseClient.connect(cluster.clientConfig().with(ClusterConfig.RPC_MAX_MESSAGE_BYTES, "4m"))) {
      Table t = small.table("bulky");
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        puts.add(Put.of(b("a" + i), Map.of("name", new byte[250_000])));
      }
      long[] ts = t.batchPut(puts);
      assertEquals(20, ts.length);
      for (int i = 0; i < 20; i++) {
        assertEquals(250_000, t.get(b("a" + i)).value("name").length);
      }
    }
  }

  /** More rows for one tablet than one oracle request has timestamps for go in several requests too. */
  @Test
  void aBatchOfMoreRowsThanARequestTakesIsSentInSeveral() {
    Table t = createTable("many");
    List<Put> puts = new ArrayList<>();
    int n = TimestampRequests.MAX_COUNT + 1000;
    for (int i = 0; i < n; i++) {
      puts.add(Put.of(b("a" + i), Map.of("name", b("v"))));
    }
    long[] ts = t.batchPut(puts);
    assertEquals(n, ts.length);
    assertEquals("v", Bytes.utf8(t.get(b("a" + (n - 1))).value("name")));
  }

  @Test
  void getsSelectedColumnsAsOfATimestamp() {
    Table t = createTable("versions");
    long first = t.put(b("k"), Map.of("name", b("one"), "email", b("e1")));
    long second = t.put(b("k"), Map.of("name", b("two")));
    long deleted = t.delete(b("k"));
    assertTrue(first < second && second < deleted);

    assertNull(t.get(b("k")));
    Row before = t.get(b("k"), List.of("name"), second);
    assertEquals(Set.of("name"), before.cells().keySet());
    assertEquals("two", Bytes.utf8(before.value("name")));
    assertEquals(second, before.cells().get("name").timestamp());
    assertEquals("e1", Bytes.utf8(t.get(b("k"), List.of(), second).value("email")));
    assertEquals("one", Bytes.utf8(t.get(b("k"), List.of("name"), first).value("name")));
    assertNull(t.get(b("k"), List.of(), first - 1));
    assertNull(t.get(b("missing"), List.of(), HybridTimestamp.LATEST));
  }

  @Test
  void scansRowsInKeyOrderAcrossTablets() {
    Table t = createTable("scanned");
    List<String> keys = load(t, 60);

    assertEquals(keys, scanKeys(t, ScanSpec.builder().batchRows(4).build()));
    assertEquals(keys.subList(0, 7), scanKeys(t, ScanSpec.builder().batchRows(3).limit(7).build()));
    // From inside the first tablet to inside the last: bounds clip the first and last tablets.
    List<String> expected = keys.stream().filter(k -> k.compareTo("a030") >= 0 && k.compareTo("q020") < 0).toList();
    assertEquals(expected, scanKeys(t, ScanSpec.builder().start(b("a030")).end(b("q020")).prefetchTablets(3).build()));
    assertEquals(List.of(), scanKeys(t, ScanSpec.builder().start(b("x")).end(b("b")).build()));

    try (Scanner s = t.scan(ScanSpec.builder().columns("email").build())) {
      assertTrue(!s.hasNext(), "no row has an email");
    }
  }

  @Test
  void closingAScanCancelsItsStreamsOnTheServers() throws Exception {
    Table t = createTable("cancelled");
    load(t, 30);
    cluster.server(0).holdScansOpen(true);
    cluster.server(1).holdScansOpen(true);
    try {
      Scanner s = t.scan(ScanSpec.builder().prefetchTablets(3).batchRows(1).build());
      assertTrue(s.hasNext());
      assertEquals("a000", Bytes.utf8(s.next().key()));
      s.close();
      assertTrue(!s.hasNext());
      assertTrue(cluster.server(0).scansStarted() + cluster.server(1).scansStarted() >= 1);
      assertTrue(cluster.server(0).awaitNoOpenScans(20, TimeUnit.SECONDS), "server 0 saw its scans cancelled");
      assertTrue(cluster.server(1).awaitNoOpenScans(20, TimeUnit.SECONDS), "server 1 saw its scans cancelled");
    } finally {
      cluster.server(0).holdScansOpen(false);
      cluster.server(1).holdScansOpen(false);
    }
  }

  @Test
  void movedTabletIsRelocatedAndTheRequestRetried() {
    Table t = createTable("moved");
    t.put(b("honey"), Map.of("name", b("H")));
    TabletInfo middle = client.admin().describeTable("moved").tablets().get(1);
    assertEquals("ts-1", middle.serverId());
    int lookups = cluster.master(0).locationLookups();

    cluster.moveTablet("moved", middle.tabletId(), 0); // the client's cache still says ts-1

    assertEquals("H", Bytes.utf8(t.get(b("honey")).value("name")));
    assertTrue(cluster.master(0).locationLookups() > lookups, "locations were refreshed");
    assertTrue(cluster.server(0).tabletsServed().contains(middle.tabletId()));

    cluster.moveTablet("moved", middle.tabletId(), 1);
    t.put(b("hazel"), Map.of("name", b("Hz")));
    cluster.moveTablet("moved", middle.tabletId(), 0);
    assertEquals(List.of("hazel", "honey"), scanKeys(t, ScanSpec.all()));
  }

  @Test
  void tabletWithoutLiveServerIsRetriedUntilAssigned() throws Exception {
    Table t = createTable("orphaned");
    t.put(b("honey"), Map.of("name", b("H")));
    int middle = client.admin().describeTable("orphaned").tablets().get(1).tabletId();
    cluster.orphanTablet("orphaned", middle);
    int lookups = cluster.master(0).locationLookups();

    CompletableFuture<Row> get = CompletableFuture.supplyAsync(() -> t.get(b("honey")));
    CompletableFuture<List<String>> scan = CompletableFuture.supplyAsync(() -> scanKeys(t, ScanSpec.all()));
    // The requests have met the tablet without a live server, and asked again, before it is reassigned.
    assertTrue(cluster.master(0).awaitLocationLookups(lookups + 3, 20, TimeUnit.SECONDS));
    assertTrue(!get.isDone() && !scan.isDone());
    cluster.moveTablet("orphaned", middle, 0);

    assertEquals("H", Bytes.utf8(get.get(20, TimeUnit.SECONDS).value("name")));
    assertEquals(List.of("honey"), scan.get(20, TimeUnit.SECONDS));
  }

  @Test
  void aTabletWhoseServerIsDownIsNamedWhenTheDeadlinePasses() {
    Table t = createTable("downed");
    t.put(b("honey"), Map.of("name", b("H")));
    int middle = client.admin().describeTable("downed").tablets().get(1).tabletId();
    cluster.orphanTablet("downed", middle);
    try (LogBaseClient quick = LogBaseClient.connect(cluster.clientConfig().with(ClusterConfig.RPC_DEADLINE_MS, 1500))) {
      // Used to end in "locate tablets of 'downed': deadline exceeded", from the last lookup.
      NotServingTabletException e = assertThrows(NotServingTabletException.class, () -> quick.table("downed").get(b("honey")));
      assertTrue(e.getMessage().startsWith("table 'downed': tablet " + middle + " [g, p) is not served: its server ts-dead"
          + " is down"), e.getMessage());
    } finally {
      cluster.moveTablet("downed", middle, 0);
    }
  }

  @Test
  void aZooKeeperNeverReachedFailsInSecondsNamingTheAddress() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (LogBaseClient nowhere = LogBaseClient.connect("localhost:" + port)) {
      long start = System.nanoTime();
      // Used to wait the whole deadline (30 s), then throw the retriable NotActiveMasterException.
      ZooKeeperUnreachableException e = assertThrows(ZooKeeperUnreachableException.class, () -> nowhere.admin().listTables());
      assertTrue(e.getMessage().startsWith("cannot connect to ZooKeeper at localhost:" + port + " (tried for 5 s)"),
          e.getMessage());
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "gave up after the connect timeout");
    }
  }

  @Test
  void scanFailingMidStreamResumesAfterTheLastKeyReceived() {
    Table t = createTable("resumed");
    List<String> keys = load(t, 60);
    // Tablet 2 ("g".."p") is on ts-1: its stream fails after 5 of its 20 rows.
    cluster.server(1).failNextScanAfterRows(5);
    int scans = cluster.server(1).scansStarted();
    assertEquals(keys, scanKeys(t, ScanSpec.builder().batchRows(2).prefetchTablets(1).build()));
    assertEquals(scans + 2, cluster.server(1).scansStarted(), "the failed tablet scan was started again");
  }

  @Test
  void typedErrorsSurfaceAtOnce() {
    Table t = createTable("typed");
    assertThrows(TableNotFoundException.class, () -> client.table("no_such_table").get(b("k")));
    assertThrows(TableNotFoundException.class, () -> client.table("no_such_table").scan(ScanSpec.all()));
    assertThrows(TableNotFoundException.class, () -> client.admin().describeTable("no_such_table"));
    ColumnNotInSchemaException e =
        assertThrows(ColumnNotInSchemaException.class, () -> t.put(b("k"), Map.of("nope", b("v"))));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
    assertThrows(ColumnNotInSchemaException.class, () -> t.get(b("k"), List.of("nope"), 0));
    assertThrows(TableExistsException.class, () -> createTable("typed"));
  }

  @Test
  void adminManagesTables() {
    createTable("managed");
    assertTrue(client.admin().listTables().contains("managed"));
    TableDescription d = client.admin().addColumnGroup("managed", "extra", "note");
    assertEquals(List.of("profile", "stats", "extra"),
        d.schema().columnGroups().stream().map(g -> g.name()).toList());
    client.table("managed").put(b("k"), Map.of("note", b("n")));
    assertArrayEquals(b("n"), client.table("managed").get(b("k")).value("note"));

    ClusterStatus status = client.admin().clusterStatus();
    assertEquals(cluster.master(0).address(), status.activeMaster());
    assertEquals(2, status.servers().size());
    assertNotNull(status.servers().get(0).tablets());

    client.admin().dropTable("managed");
    assertTrue(!client.admin().listTables().contains("managed"));
    assertThrows(TableNotFoundException.class, () -> client.table("managed").get(b("k")));
  }
}
