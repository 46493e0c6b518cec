package org.logbase.dist;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;

/**
 * A cluster of processes for the isolation histories: ZooKeeper, a master and three tablet servers
 * with the table of {@link Histories}, a client, and a second client whose commits a test may stop.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class IsolationCluster {
  @TempDir static Path dir;
  LocalCluster cluster;
  LogBaseClient client;
  LogBaseClient pausing;
  Histories histories;

  /** Cluster settings of the variant under test. */
  abstract Map<String, String> settings();

  /** How tablet servers are broken in the variant under test (none: the product). */
  List<String> brokenTabletServers() {
    return List.of();
  }

  @BeforeAll
  void start() throws Exception {
    cluster = new LocalCluster(dir, 1, 3, false, settings(), brokenTabletServers());
    client = LogBaseClient.connect(cluster.zkConnect());
    pausing = LogBaseClient.connect(cluster.zkConnect());
    Histories.createTable(client);
    histories = new Histories(client);
  }

  @AfterAll
  void stop() {
    if (pausing != null) {
      pausing.close();
    }
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }
}
