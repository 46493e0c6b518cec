package org.logbase.bench.scaleout;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.logbase.chaos.cluster.ChaosCluster;
import org.logbase.chaos.cluster.Daemon;

/**
 * A cluster of processes for bin/bench-tpcw.sh: ZooKeeper, a master and N tablet servers, each its
 * own JVM (logbase-chaos's {@link ChaosCluster}), logs on the local file system under the run
 * directory. Prints {@code PROCESS name pid} for every process and then
 * {@code CLUSTER READY zookeeper=host:port}, and runs until it is terminated (SIGTERM or SIGINT),
 * when it stops every process. The script caps the tablet servers' CPU by those pids.
 *
 * <pre>ProcessCluster --dir DIR --servers N</pre>
 */
public final class ProcessCluster {
  private ProcessCluster() {}

  public static void main(String[] args) throws Exception {
    Path dir = null;
    int servers = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--dir" -> dir = Path.of(args[i + 1]);
        case "--servers" -> servers = Integer.parseInt(args[i + 1]);
        default -> usage("unknown option " + args[i]);
      }
    }
    if (dir == null || servers < 1 || servers > 16 || args.length % 2 != 0) {
      usage("--dir and --servers (1 to 16) are needed");
    }
    ChaosCluster cluster = new ChaosCluster(dir, 1, servers, Map.of(), "");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        cluster.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stopped.countDown();
    }, "stop-cluster"));
    cluster.start();
    for (Daemon d : cluster.all()) {
      System.out.println("PROCESS " + d.name() + " " + d.pid());
    }
    System.out.println("CLUSTER READY zookeeper=" + cluster.zkConnect());
    System.out.flush();
    stopped.await();
  }

  private static void usage(String problem) {
    System.err.println("ProcessCluster: " + problem + "\nusage: ProcessCluster --dir DIR --servers N");
    System.exit(2);
  }
}
