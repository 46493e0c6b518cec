package org.logbase.chaos.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A client process of a chaos run, which the nemesis kills: a list-append thread and a transfer
 * thread, printing each list-append transaction when it begins and when it ends, and each
 * transfer's outcome, so the runner keeps the history of a client that dies mid-commit. Some
 * commits stall between prepare and commit, so a kill often lands right there.
 */
@Command(name = "chaos-client", mixinStandardHelpOptions = true, description = "A client process of a chaos run.")
public final class ChaosClient implements Callable<Integer> {
  @Option(names = "--zookeeper", required = true) String zookeeper;
  @Option(names = "--run-start", required = true, description = "The run's clock origin, epoch nanoseconds.")
  long runStart;
  @Option(names = "--process", required = true) int process;
  @Option(names = "--accounts", defaultValue = "100") int accounts;
  @Option(names = "--initial-balance", defaultValue = "1000") long initial;
  @Option(names = "--window-step-ms", defaultValue = "100") long windowStepMs;
  @Option(names = "--window-keys", defaultValue = "40") int windowKeys;
  @Option(names = "--stall-after-prepare", defaultValue = "0.05",
      description = "Probability that a commit stalls 1-3 s after prepare (default: ${DEFAULT-VALUE}).")
  double stall;
  @Option(names = "--rpc-deadline-ms", defaultValue = "5000") long deadlineMs;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ChaosClient()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    Config config = Config.empty().with(ClusterConfig.ZK_CONNECT, zookeeper)
        .with(ClusterConfig.RPC_DEADLINE_MS, deadlineMs);
    // The runner records what this process prints; the process keeps nothing itself.
    Workers workers = new Workers(config, new Recorder(), this::stallSometimes);
    RunClock clock = new RunClock(runStart);
    workers.listAppend(new ListAppend(clock, windowStepMs, windowKeys), process, new Random().nextLong(), line -> {
      synchronized (out) {
        out.println(line);
        out.flush();
      }
    });
    workers.transfers(new Bank(accounts, initial), new Random().nextLong(), line -> {
      synchronized (out) {
        out.println(line);
        out.flush();
      }
    });
    synchronized (out) {
      out.println("CLIENT READY " + process);
      out.flush();
    }
    Thread.currentThread().join(); // until killed
    return 0;
  }

  private void stallSometimes(String point) throws IOException {
    if (point.equals("txn.prepared") && ThreadLocalRandom.current().nextDouble() < stall) {
      try {
        Thread.sleep(1000 + ThreadLocalRandom.current().nextInt(2000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }
}
