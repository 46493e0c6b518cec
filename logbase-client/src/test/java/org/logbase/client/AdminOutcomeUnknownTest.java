package org.logbase.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.logbase.client.fake.FakeCluster;
import org.logbase.common.ClusterConfig;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;

/**
 * An admin call that changes something and gets no answer before its deadline (its master is
 * gone, and ZooKeeper still names it) says that its outcome is unknown and how to find it out,
 * instead of the last attempt's "server unavailable" as if nothing was done; a read-only call
 * keeps the last attempt's retriable failure.
 */
@Timeout(60)
class AdminOutcomeUnknownTest {
  private FakeCluster cluster;
  private LogBaseClient client;

  @BeforeEach
  void start() throws Exception {
    cluster = FakeCluster.start(1, 1);
    client = LogBaseClient.connect(cluster.clientConfig().with(ClusterConfig.RPC_DEADLINE_MS, 1500));
    cluster.stopMaster(0);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    cluster.close();
  }

  @Test
  void aMoveOrDropWithNoAnswerBeforeItsDeadlineSaysItMayHaveBeenDone() {
    LogBaseException move = assertThrows(LogBaseException.class, () -> client.admin().moveTablet("t", 0, "ts-1"));
    assertTrue(move.getMessage().startsWith("move tablet 0 of table 't': no answer from an active master within"
        + " rpc.deadline.ms (1500 ms); it may have been done all the same (request "), move.getMessage());
    assertTrue(move.getMessage().contains("describe the table to see"), move.getMessage());
    assertFalse(RpcErrors.isRetriable(move), "the client's retries are over");

    LogBaseException drop = assertThrows(LogBaseException.class, () -> client.admin().dropTable("t"));
    assertTrue(drop.getMessage().contains("it may have been done all the same"), drop.getMessage());
  }

  @Test
  void aReadWithNoAnswerKeepsTheLastAttemptsFailure() {
    LogBaseException list = assertThrows(LogBaseException.class, () -> client.admin().listTables());
    assertTrue(RpcErrors.isRetriable(list), list.toString());
    assertFalse(list.getMessage().contains("may have been done"), list.getMessage());
  }
}
