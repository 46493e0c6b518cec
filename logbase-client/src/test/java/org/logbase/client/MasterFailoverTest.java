package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.client.fake.FakeCluster;

/** Admin calls ride through the active master changing, going away and coming back. */
@Timeout(60)
class MasterFailoverTest {
  @Test
  void adminCallsFollowTheActiveMaster() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(2, 1);
         LogBaseClient client = LogBaseClient.connect(cluster.clientConfig())) {
      Admin admin = client.admin();
      assertEquals(List.of(), admin.listTables());
      assertTrue(cluster.master(0).served() > 0);

      // Master 1 takes over; master 0 still runs and answers NOT_ACTIVE_MASTER.
      cluster.activate(1);
      admin.createTable(TableDefinition.builder("t").columnGroup("g", "c").build());
      assertEquals(List.of("t"), admin.listTables());
      assertTrue(cluster.master(1).served() > 0);

      // Master 1 dies; for a while no master is registered; then master 0 wins the election.
      cluster.stopMaster(1);
      cluster.deactivateAll();
      CompletableFuture<List<String>> tables = CompletableFuture.supplyAsync(admin::listTables);
      cluster.activate(0);
      assertEquals(List.of("t"), tables.get(30, TimeUnit.SECONDS));
      assertEquals(List.of("t"), admin.listTables());
    }
  }
}
