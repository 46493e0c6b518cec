package org.logbase.bench.engine;

/**
 * The frame of every benchmark program: start a cluster, run, always shut the cluster down and
 * delete its data, and exit with a status (explicitly: Hadoop leaves non-daemon threads behind
 * that would keep the JVM alive).
 */
final class BenchMain {
  @FunctionalInterface
  interface Body {
    void run(BenchCluster cluster) throws Exception;
  }

  private BenchMain() {}

  /** Reads the common flags, checks all flags, then runs {@code body} on a fresh cluster. */
  static void run(String program, Args args, Body body) {
    String tmp = args.string("tmp", System.getProperty("java.io.tmpdir"));
    int status = 0;
    try {
      args.finish(program);
      try (BenchCluster cluster = BenchCluster.start(tmp)) {
        body.run(cluster);
      }
    } catch (Throwable e) {
      System.out.flush();
      System.err.println(program + " FAILED: " + e);
      e.printStackTrace();
      status = 1;
    }
    System.out.flush();
    System.exit(status);
  }

  static void gc() {
    // Start each trial with a clean heap, so one side does not pay for the other's garbage.
    System.gc();
  }
}
