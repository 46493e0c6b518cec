package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.client.fake.FakeCluster;
import org.logbase.common.ClusterConfig;
import org.logbase.common.LogBaseException;

/**
 * An admin call that changes something and whose master answers only after its deadline (a slow
 * master, not a gone one) says that it may have been done, as one with no master does: it said
 * only "deadline exceeded", and the drop had happened (found by a black-box tester).
 */
@Timeout(60)
class AdminSlowMasterTest {
  private FakeCluster cluster;
  private LogBaseClient client;

  @BeforeEach
  void start() throws Exception {
    cluster = FakeCluster.start(1, 1);
    client = LogBaseClient.connect(cluster.clientConfig().with(ClusterConfig.RPC_DEADLINE_MS, 1500));
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    cluster.close();
  }

  @Test
  void aDropAnsweredAfterItsDeadlineSaysItMayHaveBeenDone() {
    client.admin().createTable(TableDefinition.builder("slow").columnGroup("g", "c").build());
    CountDownLatch answer = cluster.master(0).holdDropAnswers();
    try {
      LogBaseException drop = assertThrows(LogBaseException.class, () -> client.admin().dropTable("slow"));
      assertTrue(drop.getMessage().contains("it may have been done all the same (request "), drop.getMessage());
    } finally {
      answer.countDown();
    }
    assertFalse(client.admin().listTables().contains("slow"), "it was done");
  }
}
