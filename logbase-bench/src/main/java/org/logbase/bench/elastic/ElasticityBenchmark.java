package org.logbase.bench.elastic;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.logbase.bench.engine.Args;
import org.logbase.chaos.cluster.ChaosCluster;
import org.logbase.chaos.cluster.Daemon;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ServerInfo;
import org.logbase.client.TableDefinition;
import org.logbase.client.TableDescription;
import org.logbase.client.TabletInfo;
import org.logbase.client.TabletMove;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.log.LogFileSystems;
import org.logbase.testing.MiniHdfs;

/**
 * Failover, moves and rebalancing (issue #11), on a cluster of processes (ZooKeeper, a master, tablet
 * servers: logbase-chaos's {@link ChaosCluster}) whose logs are on an in-process MiniDFSCluster:
 *
 * <ol>
 *   <li><b>failover</b>: the tablets of ts1 are filled until its log holds {@code --log-mb}, with
 *       checkpoints every {@code --checkpoint-updates} updates; ts1 is killed with kill -9 and not
 *       restarted; measured: from the kill until every one of its tablets answers a read at its new
 *       server, against the ZooKeeper session timeout (what detection alone costs);
 *   <li><b>moves</b>: {@code --moves} tablets moved one at a time between the live servers; measured:
 *       each move's time without writes (from the source refusing them to the target serving), and
 *       the data files (log segments) created meanwhile, which a move that copies no data leaves
 *       unchanged;
 *   <li><b>rebalance</b>: a workload like YCSB's A (reads and updates half and half, keys uniform over
 *       the loaded rows, {@code --threads} clients) runs {@code --seconds} on the balanced cluster,
 *       then while the balancer moves tablets to ts4, a server taken out of the placement at the
 *       start (decommissioned) and taken back now; the throughput during the rebalance is divided by
 *       the steady one.
 * </ol>
 *
 * Prints a line per measurement and {@code RESULT name value} lines, and removes everything it wrote.
 */
public final class ElasticityBenchmark {
  static final String TABLE = "elastic";
  static final String COLUMN = "v";
  /** A new owner's line on a tablet it took over (StorageEngine), with the log line's time. */
  private static final Pattern TOOK_OVER = Pattern.compile(
      "^(\\S+) .*took over tablet (\\S+) .*replayed (\\d+) records \\(([0-9.]+) MB\\).* in (\\d+) ms");
  /** The master's line on finding servers dead (TabletFailover). */
  private static final Pattern DEAD_SEEN = Pattern.compile("^(\\S+) .*tablet servers \\[.*\\] are dead");

  private ElasticityBenchmark() {}

  public static void main(String[] argv) throws Exception {
    Args args = Args.parse(argv);
    long logMb = args.longValue("log-mb", 1024);
    int valueBytes = args.intValue("value-bytes", 1024);
    int tablets = args.intValue("tablets", 24);
    int loaders = args.intValue("load-threads", 16);
    long checkpointUpdates = args.longValue("checkpoint-updates", 20_000);
    int moves = args.intValue("moves", 6);
    int threads = args.intValue("threads", 8);
    int seconds = args.intValue("seconds", 20);
    int sessionMs = args.intValue("session-ms", 6000);
    String tmp = args.string("tmp", System.getProperty("java.io.tmpdir"));
    boolean keep = args.bool("keep", false);
    args.finish("ElasticityBenchmark");

    Path dir = Files.createTempDirectory(Path.of(tmp), "logbase-elastic-");
    MiniHdfs hdfs = new MiniHdfs(dir.resolve("hdfs").toFile());
    try (ChaosCluster cluster = new ChaosCluster(dir.resolve("cluster"), 1, 4, Map.of(
            "logbase.fs.root", hdfs.uri("/logbase").toString(),
            "zookeeper.session.timeout.ms", Integer.toString(sessionMs),
            "checkpoint.updates", Long.toString(checkpointUpdates),
            "master.balancer.interval.ms", "1000"), "");
        FileSystem fs = LogFileSystems.open(hdfs.uri("/"), hdfs.conf())) {
      cluster.start();
      try (LogBaseClient client = LogBaseClient.connect(cluster.zkConnect())) {
        client.admin().setBalancer(false);
        client.admin().decommission("ts4"); // joins later, for the rebalance
        TableDescription table = client.admin().createTable(
            TableDefinition.builder(TABLE).columnGroup("g", COLUMN).build(), splitKeys(tablets));
        System.out.printf("cluster: 1 master, ts1..ts3 serving %d tablets, ts4 held back; HDFS %s; session timeout %d ms%n",
            tablets, hdfs.uri("/"), sessionMs);

        List<TabletInfo> onTs1 = table.tablets().stream().filter(t -> t.serverId().equals("ts1")).toList();
        long rows = logMb * 1024 * 1024 / (valueBytes + 64);
        long t0 = System.nanoTime();
        List<byte[]> keys = load(client, onTs1, rows, valueBytes, loaders);
        double loadS = (System.nanoTime() - t0) / 1e9;
        long ts1Log = bytesUnder(fs, "/logbase/servers/ts1/log");
        System.out.printf("loaded %,d rows of %d bytes into ts1's %d tablets in %.1f s; ts1's log: %,d MB%n",
            keys.size(), valueBytes, onTs1.size(), loadS, ts1Log >> 20);

        failover(cluster, client, onTs1, sessionMs, ts1Log);
        moveTablets(cluster, client, fs, moves);
        rebalance(client, keys, valueBytes, threads, seconds);
      }
    } finally {
      hdfs.close();
      if (keep) {
        System.out.println("kept the cluster's files and logs in " + dir);
      } else {
        deleteRecursively(dir);
      }
    }
  }

  /** n - 1 split keys "r00".."r{n-1}": tablet i holds the rows whose key starts with r + i (two digits). */
  private static byte[][] splitKeys(int tablets) {
    byte[][] splits = new byte[tablets - 1][];
    for (int i = 1; i < tablets; i++) {
      splits[i - 1] = Bytes.utf8(String.format("r%02d", i));
    }
    return splits;
  }

  private static String prefixOf(TabletInfo t) {
    return t.startKey().length == 0 ? "r00" : Bytes.toStringBinary(t.startKey());
  }

  /** Writes {@code rows} rows spread over {@code targets} with {@code threads} clients; returns their keys. */
  private static List<byte[]> load(LogBaseClient client, List<TabletInfo> targets, long rows, int valueBytes,
      int threads) throws Exception {
    List<byte[]> keys = Collections.synchronizedList(new ArrayList<>());
    AtomicLong next = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      done.add(pool.submit(() -> {
        byte[] value = new byte[valueBytes];
        for (long n; (n = next.getAndIncrement()) < rows; ) {
          TabletInfo t = targets.get((int) (n % targets.size()));
          byte[] key = Bytes.utf8(prefixOf(t) + "-" + String.format("%012d", n));
          ThreadLocalRandom.current().nextBytes(value);
          client.table(TABLE).put(key, Map.of(COLUMN, value));
          keys.add(key);
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    return keys;
  }

  private static void failover(ChaosCluster cluster, LogBaseClient client, List<TabletInfo> victims, int sessionMs,
      long logBytes) throws Exception {
    Daemon ts1 = cluster.tabletServers().stream().filter(d -> d.name().equals("ts1")).findFirst().orElseThrow();
    long killed = System.nanoTime();
    long killedWall = System.currentTimeMillis();
    ts1.kill9();
    awaitTrue(Duration.ofMinutes(10), () -> {
      for (TabletInfo t : victims) {
        try {
          client.table(TABLE).get(Bytes.utf8(prefixOf(t) + "-probe"));
        } catch (LogBaseException e) {
          return false;
        }
      }
      return true;
    });
    long ms = (System.nanoTime() - killed) / 1_000_000;
    List<String> replays = new ArrayList<>();
    List<Long> takenOver = new ArrayList<>();
    for (Daemon d : cluster.tabletServers()) {
      if (!d.name().equals("ts1")) {
        for (Matcher m : grep(d.log(), TOOK_OVER)) {
          replays.add("tablet " + m.group(2) + ": replayed " + m.group(3) + " records (" + m.group(4) + " MB) in "
              + m.group(5) + " ms");
          takenOver.add(LogTimes.millis(m.group(1), killedWall) - killedWall);
        }
      }
    }
    long detected = -1;
    for (Daemon m : cluster.masters()) {
      for (Matcher line : grep(m.log(), DEAD_SEEN)) {
        long at = LogTimes.millis(line.group(1), killedWall) - killedWall;
        if (at >= 0 && (detected < 0 || at < detected)) {
          detected = at;
        }
      }
    }
    System.out.printf("failover: ts1 (log %,d MB) killed; its %d tablets served by others %,d ms later"
        + " (session timeout %,d ms; goal: timeout + 5 s = %,d ms)%n", logBytes >> 20, victims.size(), ms, sessionMs,
        sessionMs + 5000);
    System.out.printf("  after the kill: master saw ts1's session gone at %,d ms; new owners took its tablets over at"
        + " %,d..%,d ms (from their logs); every tablet answered the client at %,d ms%n", detected,
        takenOver.stream().mapToLong(Long::longValue).min().orElse(-1),
        takenOver.stream().mapToLong(Long::longValue).max().orElse(-1), ms);
    replays.forEach(r -> System.out.println("  " + r));
    System.out.println("RESULT failover_ms " + ms);
    System.out.println("RESULT failover_over_session_ms " + (ms - sessionMs));
    System.out.println("RESULT failover_detected_ms " + detected);
    System.out.println("RESULT failover_log_mb " + (logBytes >> 20));
  }

  private static void moveTablets(ChaosCluster cluster, LogBaseClient client, FileSystem fs, int moves)
      throws Exception {
    List<Long> unavailable = new ArrayList<>();
    long segmentsBefore = filesUnder(fs, "/logbase/servers");
    long tabletBytesBefore = bytesUnder(fs, "/logbase/tablets");
    for (int i = 0; i < moves; i++) {
      TableDescription d = client.admin().describeTable(TABLE);
      TabletInfo t = d.tablets().get(i % d.tablets().size());
      String to = t.serverId().equals("ts2") ? "ts3" : "ts2";
      TabletMove m = client.admin().moveTablet(TABLE, t.tabletId(), to);
      unavailable.add(m.unavailableMs());
    }
    long segmentsAfter = filesUnder(fs, "/logbase/servers");
    long tabletBytes = bytesUnder(fs, "/logbase/tablets") - tabletBytesBefore;
    Collections.sort(unavailable);
    System.out.printf("moves: %d tablets moved one at a time, without writes for %s ms (median %d, max %d);"
        + " log segments created meanwhile: %d; checkpoint (index and manifest) bytes written: %,d%n", moves,
        unavailable, unavailable.get(unavailable.size() / 2), unavailable.get(unavailable.size() - 1),
        segmentsAfter - segmentsBefore, tabletBytes);
    System.out.println("RESULT move_unavailable_median_ms " + unavailable.get(unavailable.size() / 2));
    System.out.println("RESULT move_unavailable_max_ms " + unavailable.get(unavailable.size() - 1));
    System.out.println("RESULT move_segments_created " + (segmentsAfter - segmentsBefore));
  }

  private static void rebalance(LogBaseClient client, List<byte[]> keys, int valueBytes, int threads, int seconds)
      throws Exception {
    Workload steady = Workload.start(client, keys, valueBytes, threads);
    TimeUnit.SECONDS.sleep(seconds);
    double steadyOps = steady.stop();
    System.out.printf("workload A (50%% reads, 50%% updates, %d threads): steady %.0f ops/s%n", threads, steadyOps);

    Workload during = Workload.start(client, keys, valueBytes, threads);
    long t0 = System.nanoTime();
    client.admin().recommission("ts4");
    client.admin().setBalancer(true);
    awaitTrue(Duration.ofMinutes(5), () -> balanced(client));
    long rebalanceMs = (System.nanoTime() - t0) / 1_000_000;
    double duringOps = during.stop();
    int ts4 = client.admin().clusterStatus().servers().stream().filter(s -> s.serverId().equals("ts4"))
        .mapToInt(s -> s.tablets().size()).sum();
    System.out.printf("rebalance: ts4 got %d tablets in %,d ms; workload A %.0f ops/s meanwhile: %.2f of steady"
        + " (goal: at least 0.7); failed operations: %d steady, %d during%n", ts4, rebalanceMs, duringOps,
        duringOps / steadyOps, steady.failures(), during.failures());
    System.out.printf("RESULT ycsb_a_steady_ops %.0f%nRESULT ycsb_a_rebalance_ops %.0f%nRESULT ycsb_a_rebalance_ratio %.2f%n",
        steadyOps, duringOps, duringOps / steadyOps);
  }

  /** Whether the live servers' tablet counts differ by at most one. */
  private static boolean balanced(LogBaseClient client) {
    List<Integer> counts = client.admin().clusterStatus().servers().stream().filter(ServerInfo::live)
        .map(s -> s.tablets().size()).toList();
    return Collections.max(counts) - Collections.min(counts) <= 1;
  }

  /** Reads and updates, half and half, of random loaded keys, by several client threads. */
  private static final class Workload {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong ops = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final ExecutorService pool;
    private final List<Future<?>> workers = new ArrayList<>();
    private final long started = System.nanoTime();

    private Workload(int threads) {
      pool = Executors.newFixedThreadPool(threads);
    }

    static Workload start(LogBaseClient client, List<byte[]> keys, int valueBytes, int threads) {
      Workload w = new Workload(threads);
      for (int i = 0; i < threads; i++) {
        w.workers.add(w.pool.submit(() -> {
          byte[] value = new byte[valueBytes];
          ThreadLocalRandom r = ThreadLocalRandom.current();
          while (w.running.get()) {
            byte[] key = keys.get(r.nextInt(keys.size()));
            try {
              if (r.nextBoolean()) {
                client.table(TABLE).get(key);
              } else {
                r.nextBytes(value);
                client.table(TABLE).put(key, Map.of(COLUMN, value));
              }
              w.ops.incrementAndGet();
            } catch (LogBaseException e) {
              w.failures.incrementAndGet();
            }
          }
          return null;
        }));
      }
      return w;
    }

    /** Stops the clients; returns the operations per second since the start. */
    double stop() throws Exception {
      running.set(false);
      double s = (System.nanoTime() - started) / 1e9;
      for (Future<?> f : workers) {
        f.get();
      }
      pool.shutdown();
      return ops.get() / s;
    }

    long failures() {
      return failures.get();
    }
  }

  private static void awaitTrue(Duration max, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not within " + max);
      }
      TimeUnit.MILLISECONDS.sleep(20); // polling interval: the condition decides
    }
  }

  private static long bytesUnder(FileSystem fs, String path) throws IOException {
    long sum = 0;
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(path), true);
    while (it.hasNext()) {
      sum += it.next().getLen();
    }
    return sum;
  }

  private static long filesUnder(FileSystem fs, String path) throws IOException {
    long n = 0;
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(path), true);
    while (it.hasNext()) {
      it.next();
      n++;
    }
    return n;
  }

  private static List<Matcher> grep(File log, Pattern p) throws IOException {
    List<Matcher> out = new ArrayList<>();
    for (String line : Files.readAllLines(log.toPath(), StandardCharsets.UTF_8)) {
      Matcher m = p.matcher(line);
      if (m.find()) {
        out.add(m);
      }
    }
    return out;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      walk.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
