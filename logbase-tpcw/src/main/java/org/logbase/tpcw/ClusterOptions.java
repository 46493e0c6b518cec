package org.logbase.tpcw;

import org.logbase.client.LogBaseClient;
import picocli.CommandLine.Option;

/** Which cluster a command talks to. */
final class ClusterOptions {
  @Option(names = "--zookeeper", defaultValue = "localhost:2181",
      description = "ZooKeeper of the cluster, host:port[,host:port...] (default: ${DEFAULT-VALUE}).")
  String zookeeper;

  LogBaseClient connect() {
    return LogBaseClient.connect(zookeeper);
  }
}
