package org.logbase.bench.oracle;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.logbase.bench.engine.Args;
import org.logbase.bench.engine.BenchMain;
import org.logbase.bench.engine.Report;
import org.logbase.bench.engine.TimedLoop;
import org.logbase.bench.txn.InProcessCluster;
import org.logbase.client.LogBaseClient;
import org.logbase.client.TimestampClient;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.master.MasterServer;
import org.logbase.rpc.MasterServiceGrpc;
import org.logbase.rpc.MasterServiceGrpc.MasterServiceBlockingStub;
import org.logbase.rpc.TimestampRequest;

/**
 * Timestamps per second from the timestamp oracle, through {@link TimestampClient} (concurrent
 * calls batched into one GetTimestamps request) against the baseline of one GetTimestamps request
 * per timestamp, with 1, 4 and 16 client threads, in the same run: an in-process ZooKeeper
 * (Curator TestingServer), one master, one client, over loopback gRPC.
 *
 * <p>Both ways are warmed up together first (JIT), then each thread count runs several trials that
 * alternate which way goes first, and the median of each way is reported, so that a burst of other
 * work on the machine or a late JIT tier does not decide the comparison. Prints a table and one
 * {@code RESULT name=oracle.timestamps ...} line per thread count.
 */
public final class OracleBenchmark {
  private static final Duration RPC_DEADLINE = Duration.ofSeconds(30);

  private final Duration warmup;
  private final Duration window;
  private final int trials;

  private OracleBenchmark(Duration warmup, Duration window, int trials) {
    this.warmup = warmup;
    this.window = window;
    this.trials = trials;
  }

  /** One way of taking timestamps, measured as a loop. */
  private record Way(String name, TimedLoop.Op op) {}

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    List<Integer> threadCounts = Arrays.stream(a.string("threads", "1,4,16").split(","))
        .map(String::trim).map(Integer::parseInt).toList();
    Duration warmup = Duration.ofSeconds(a.longValue("warmup-seconds", 2));
    Duration window = Duration.ofSeconds(a.longValue("seconds", 3));
    int trials = a.intValue("trials", 3);
    BenchMain.runAndExit("OracleBenchmark", () -> {
      a.finish("OracleBenchmark");
      new OracleBenchmark(warmup, window, trials).run(threadCounts);
    });
  }

  private void run(List<Integer> threadCounts) throws Exception {
    try (TestingServer zk = new TestingServer(true)) {
      Config config = Config.empty().with(ClusterConfig.ZK_CONNECT, zk.getConnectString());
      try (MasterServer master = MasterServer.start(config, "localhost", 0, new PrintStream(OutputStream.nullOutputStream()));
           LogBaseClient client = LogBaseClient.connect(config)) {
        InProcessCluster.awaitActive(master);
        ManagedChannel channel = NettyChannelBuilder.forTarget(master.address()).usePlaintext().build();
        try {
          measure(threadCounts, client.timestamps(), MasterServiceGrpc.newBlockingStub(channel));
        } finally {
          channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
      }
    }
  }

  private void measure(List<Integer> threadCounts, TimestampClient client, MasterServiceBlockingStub master)
      throws Exception {
    TimestampRequest one = TimestampRequest.newBuilder().setCount(1).build();
    Way batched = new Way("batched", (t, rng) -> {
      client.next();
      return 1;
    });
    Way unbatched = new Way("unbatched", (t, rng) -> {
      master.withDeadlineAfter(RPC_DEADLINE.toMillis(), TimeUnit.MILLISECONDS).getTimestamps(one);
      return 1;
    });
    for (Way way : List.of(batched, unbatched)) {
      new TimedLoop("jit-" + way.name(), 4, 1).warmup(Duration.ZERO).window(warmup).run(way.op());
    }

    Report table = new Report("threads", "batched ts/s", "unbatched ts/s", "batched/unbatched");
    for (int threads : threadCounts) {
      Report.heading(threads + " client thread(s), " + trials + " trials");
      double[] b = new double[trials];
      double[] u = new double[trials];
      for (int trial = 0; trial < trials; trial++) {
        boolean batchedFirst = trial % 2 == 0;
        double first = perSecond(batchedFirst ? batched : unbatched, threads);
        double second = perSecond(batchedFirst ? unbatched : batched, threads);
        b[trial] = batchedFirst ? first : second;
        u[trial] = batchedFirst ? second : first;
        System.out.printf("trial %d: batched %.0f/s, unbatched %.0f/s%n", trial + 1, b[trial], u[trial]);
      }
      double bm = median(b);
      double um = median(u);
      table.row(threads, bm, um, bm / um);
      Report.result("oracle.timestamps", "threads", threads, "batched_per_s", Math.round(bm),
          "unbatched_per_s", Math.round(um), "ratio", bm / um, "trials", trials);
    }
    Report.heading("timestamps/s through TimestampClient (batched) vs one GetTimestamps per timestamp (medians)");
    table.print();
  }

  private double perSecond(Way way, int threads) throws Exception {
    return new TimedLoop(way.name(), threads, 1).warmup(warmup).window(window).run(way.op()).perSecond();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
