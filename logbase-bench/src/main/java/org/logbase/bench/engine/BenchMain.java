package org.logbase.bench.engine;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * The frame of every benchmark program: start a cluster (or attach to a running file system with
 * {@code --fs-root}), run, always shut the cluster down and delete its data, and exit with a status
 * (explicitly: Hadoop leaves non-daemon threads behind that would keep the JVM alive).
 */
public final class BenchMain {
  @FunctionalInterface
  public interface Body {
    void run(BenchCluster cluster) throws Exception;
  }

  /** What a program does once its flags are read. */
  @FunctionalInterface
  public interface Program {
    void run() throws Exception;
  }

  private BenchMain() {}

  /** Reads the common flags, checks all flags, then runs {@code body} on a fresh cluster. */
  public static void run(String program, Args args, Body body) {
    String tmp = args.string("tmp", System.getProperty("java.io.tmpdir"));
    // Empty: an in-process MiniDFSCluster. Else e.g. hdfs://localhost:8020/bench, used as it is.
    String fsRoot = args.string("fs-root", "");
    // Directory with core-site.xml / hdfs-site.xml for --fs-root: the client settings (replication!)
    // must be the ones the cluster's own clients use, or the comparison is not like for like.
    String hadoopConf = args.string("hadoop-conf", "");
    runAndExit(program, () -> {
      args.finish(program);
      if (fsRoot.isEmpty() && !hadoopConf.isEmpty()) {
        throw new IllegalArgumentException("--hadoop-conf configures the client of --fs-root; give both");
      }
      try (BenchCluster cluster = fsRoot.isEmpty() ? BenchCluster.start(tmp)
          : BenchCluster.attach(URI.create(fsRoot), hadoopConf(hadoopConf))) {
        body.run(cluster);
      }
    });
  }

  /**
   * Runs {@code body}, prints a failure with its stack trace, and exits with status 0 or 1
   * (explicitly: Hadoop, ZooKeeper and gRPC leave non-daemon threads behind).
   */
  public static void runAndExit(String program, Program body) {
    int status = 0;
    try {
      body.run();
    } catch (Throwable e) {
      System.out.flush();
      System.err.println(program + " FAILED: " + e);
      e.printStackTrace();
      status = 1;
    }
    System.out.flush();
    System.exit(status);
  }

  private static Configuration hadoopConf(String dir) {
    Configuration conf = new Configuration();
    if (!dir.isEmpty()) {
      for (String file : new String[] {"core-site.xml", "hdfs-site.xml"}) {
        Path p = Path.of(dir, file);
        if (!Files.isRegularFile(p)) {
          throw new IllegalArgumentException("--hadoop-conf " + dir + " has no " + file);
        }
        conf.addResource(new org.apache.hadoop.fs.Path(p.toUri()));
      }
    }
    return conf;
  }

  public static void gc() {
    // Start each trial with a clean heap, so one side does not pay for the other's garbage.
    System.gc();
  }

  /**
   * Whether the heap asked for transparent huge pages, and how much of the process's memory is on
   * them (Linux's {@code /proc/self/smaps_rollup}; "unknown" where it cannot tell): on the benchmark machine a
   * full scan, which writes every value it returns into new heap memory, ran about 30% slower
   * without them (docs/benchmarks.md, "Compaction").
   */
  public static String hugePages() {
    String asked = "unknown";
    String held = "unknown";
    try {
      HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      asked = hs.getVMOption("UseTransparentHugePages").getValue(); // no such option off Linux
      for (String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup"))) {
        if (line.startsWith("AnonHugePages:")) {
          held = String.format(Locale.ROOT, "%,d MB", Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10);
        }
      }
    } catch (IOException | RuntimeException e) {
      held = "unknown (" + e + ")";
    }
    return "UseTransparentHugePages=" + asked + ", process memory on huge pages: " + held;
  }
}
