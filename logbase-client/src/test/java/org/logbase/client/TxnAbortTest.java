package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.client.fake.FakeCluster;
import org.logbase.client.fake.FakeTabletServer;
import org.logbase.common.Bytes;
import org.logbase.common.ClusterConfig;
import org.logbase.common.LogBaseException;
import org.logbase.common.TransactionAbortedException;
import org.logbase.testing.Await;

/** A two-phase commit that fails: what its participants are told, against fake servers. */
@Timeout(60)
class TxnAbortTest {
  private static FakeCluster cluster;
  private static LogBaseClient client;

  @BeforeAll
  static void start() throws Exception {
    cluster = FakeCluster.start(1, 2);
    try (LogBaseClient admin = LogBaseClient.connect(cluster.clientConfig())) {
      admin.admin().createTable(TableDefinition.builder("t").columnGroup("g", "v").build(), Bytes.utf8("m"));
      admin.admin().createTable(TableDefinition.builder("other").columnGroup("g", "v").build());
    }
    // A short commit deadline: the prepare held below takes all of it.
    client = LogBaseClient.connect(cluster.clientConfig().with(ClusterConfig.RPC_DEADLINE_MS, 1500));
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    cluster.close();
  }

  private static FakeTabletServer serverOf(String key) {
    TabletInfo t = client.admin().describeTable("t").tablets().stream()
        .filter(i -> i.startKey() == null || i.startKey().length == 0 || Bytes.compare(Bytes.utf8(key), i.startKey()) >= 0)
        .reduce((a, b) -> b).orElseThrow();
    return cluster.server(t.serverId().equals(cluster.server(0).id()) ? 0 : 1);
  }

  /**
   * A secondary that seems paused holds its prepare past the commit's deadline. The transaction is
   * aborted, and the primary's server, which prepared, is told so at once: sent with the commit's
   * deadline, spent by then, the abort failed before it left, and the primary's rows stayed locked
   * until someone resolved them.
   */
  @Test
  void aCommitThatSpentItsDeadlineOnAPausedServerStillAbortsTheOthers() {
    FakeTabletServer primary = serverOf("a");
    FakeTabletServer paused = serverOf("z");
    assertNotEquals(primary.id(), paused.id(), "the two rows are on two servers");
    // A table whose one tablet is on the server that answers: its locations outlive the failure.
    cluster.moveTablet("other", 0, primary == cluster.server(0) ? 0 : 1);
    Table other = client.table("other");
    other.get(Bytes.utf8("k"));
    paused.holdPrepares(true);
    try {
      Transaction txn = client.begin();
      txn.put("t", Bytes.utf8("a"), Map.of("v", Bytes.utf8("1")));
      txn.put("t", Bytes.utf8("z"), Map.of("v", Bytes.utf8("1")));
      assertThrows(LogBaseException.class, txn::commit);
      String abort = "abort " + txn.startTimestamp();
      Await.until(Duration.ofSeconds(20), "the primary's server gets the abort",
          () -> primary.decides().contains(abort));
      Await.until(Duration.ofSeconds(20), "the paused server gets the abort too",
          () -> paused.decides().contains(abort));
      int lookups = cluster.master(0).locationLookups();
      other.get(Bytes.utf8("k"));
      assertEquals(lookups, cluster.master(0).locationLookups(),
          "a table with no tablet on the server not reached is not looked up again");
    } finally {
      paused.holdPrepares(false);
    }
  }

  /**
   * A secondary's tablet moved after the primary prepared: the secondary refuses the prepare (not
   * served there) and the primary is sent an abort. The commit is not tried again under the same
   * start timestamp (that abort could reach the primary, or another prepared participant, after the
   * retry prepared there again, and take that half back): the transaction is aborted, to run again.
   */
  @Test
  void aTabletMovedUnderAPrepareAbortsTheTransactionInsteadOfPreparingItAgain() {
    FakeTabletServer primary = serverOf("a");
    FakeTabletServer moved = serverOf("z");
    assertNotEquals(primary.id(), moved.id(), "the two rows are on two servers");
    int primaryIndex = primary == cluster.server(0) ? 0 : 1;
    client.table("t").get(Bytes.utf8("z")); // the client knows where "z" is
    int tablet = client.admin().describeTable("t").tablets().stream().filter(i -> i.serverId().equals(moved.id()))
        .findFirst().orElseThrow().tabletId();
    cluster.moveTablet("t", tablet, primaryIndex);
    try {
      Transaction txn = client.begin();
      txn.put("t", Bytes.utf8("a"), Map.of("v", Bytes.utf8("1")));
      txn.put("t", Bytes.utf8("z"), Map.of("v", Bytes.utf8("1")));
      assertThrows(TransactionAbortedException.class, txn::commit);
      Await.until(Duration.ofSeconds(20), "the primary's server gets the abort",
          () -> primary.decides().contains("abort " + txn.startTimestamp()));
    } finally {
      cluster.moveTablet("t", tablet, 1 - primaryIndex);
    }
  }
}
