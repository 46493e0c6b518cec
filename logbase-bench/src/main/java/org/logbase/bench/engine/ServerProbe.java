package org.logbase.bench.engine;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.management.MBeanServerConnection;
import org.logbase.common.Jmx;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.logbase.bench.engine.ThreadCpuProfile.ThreadCpu;

/**
 * Watches a running cluster while a client (YCSB) drives one tablet server, to explain where write
 * throughput goes without changing server code:
 *
 * <ul>
 *   <li>what the tablet server's log-writer thread does: the same {@link StackSampler} profile the
 *       engine benchmark prints for its own log writer (waiting for work, waiting for the HDFS ack,
 *       or busy);
 *   <li>the group-commit batch size, which the heartbeat does not report: the DataNode's packet
 *       count. Each hflush sends one packet while a batch is below a packet (64 KiB), so the
 *       client's record count / packets is records per flush;
 *   <li>which threads of the tablet server and of the client burn CPU, and how busy each process
 *       and the whole machine were (other processes on a shared machine included).
 * </ul>
 *
 * <p>The window opens when {@code --start-text} appears in {@code --start-file} (YCSB's first
 * status line, printed just before its client threads start: JVM start-up is not measured), or at
 * once, and closes when the client process exits (or after {@code --seconds}). The probe attaches to
 * the JVMs through the JDK attach API and reads their platform MBeans; process CPU comes from /proc.
 *
 * <p>Hadoop serves its metrics over JMX from a cache refreshed once per metrics period (10 s unless
 * the daemon's hadoop-metrics2.properties says otherwise; bin/bench-cluster.sh sets 1 s), so the
 * DataNode counters are read {@code --settle-seconds} after the client exited: no packet arrives
 * then, and the cache has caught up with the last ones.
 */
public final class ServerProbe {
  /** Linux reports CPU time in USER_HZ ticks, which the kernel ABI fixes at 100 per second. */
  private static final double TICKS_PER_SECOND = 100;
  private static final String DATANODE_ACTIVITY = "Hadoop:service=DataNode,name=DataNodeActivity-*";
  private static final long POLL_MILLIS = 200;

  /** A JVM attached over JMX, with the per-thread CPU seen at the window's start and last. */
  private static final class Jvm implements AutoCloseable {
    final String name;
    final JMXConnector connector;
    final com.sun.management.ThreadMXBean threads;
    Map<Long, ThreadCpu> first;
    Map<Long, ThreadCpu> last;

    // BanJNDI: the URL is not user input; it is the one the attach API returned for a JVM of
    // this user's, found by pid (the JDK's local management agent), as jconsole connects.
    @SuppressWarnings("BanJNDI")
    Jvm(String name, long pid) throws Exception {
      this.name = name;
      VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
      String url;
      try {
        url = vm.startLocalManagementAgent();
      } finally {
        vm.detach();
      }
      this.connector = JMXConnectorFactory.connect(new JMXServiceURL(url));
      this.threads = ManagementFactory.newPlatformMXBeanProxy(connector.getMBeanServerConnection(),
          ManagementFactory.THREAD_MXBEAN_NAME, com.sun.management.ThreadMXBean.class);
    }

    /** Takes a per-thread CPU snapshot (two remote calls); a JVM that has exited keeps its last one. */
    void snapshot() {
      try {
        Map<Long, ThreadCpu> now = ThreadCpuProfile.snapshot(threads);
        if (first == null) {
          first = now;
          last = new HashMap<>();
        }
        // Merged, not replaced: a thread that ended (a client thread at the end of the load)
        // keeps the CPU time it was last seen with.
        last.putAll(now);
      } catch (RuntimeException e) {
        // The JVM is gone (the client at its end): the last snapshot stands.
      }
    }

    @Override
    public void close() {
      try {
        connector.close();
      } catch (IOException e) {
        // Closing a connection to a JVM that exited.
      }
    }
  }

  private ServerProbe() {}

  public static void main(String[] argv) {
    Args a = Args.parse(argv);
    long server = a.longValue("server-pid", -1);
    long datanode = a.longValue("datanode-pid", -1);
    long client = a.longValue("client-pid", -1);
    String others = a.string("pids", "");
    String startFile = a.string("start-file", "");
    String startText = a.string("start-text", " 0 sec: ");
    long maxSeconds = a.longValue("seconds", 900);
    long sampleMs = a.longValue("sample-ms", 10);
    long settleSeconds = a.longValue("settle-seconds", 2);
    String name = a.string("name", "cluster.probe");
    a.finish("ServerProbe");
    BenchMain.runAndExit("ServerProbe", () -> {
      if (server < 0 || datanode < 0) {
        throw new IllegalArgumentException("--server-pid and --datanode-pid are required");
      }
      Map<String, Long> pids = new LinkedHashMap<>();
      pids.put("tabletserver", server);
      pids.put("datanode", datanode);
      if (client >= 0) {
        pids.put("client", client);
      }
      for (String kv : others.split(",")) {
        if (!kv.isBlank()) {
          String[] p = kv.split("=", 2);
          pids.put(p[0].trim(), Long.parseLong(p[1].trim()));
        }
      }
      run(name, pids, startFile.isEmpty() ? null : Path.of(startFile), startText, maxSeconds, sampleMs, settleSeconds);
    });
  }

  private static void run(String name, Map<String, Long> pids, Path startFile, String startText, long maxSeconds,
      long sampleMs, long settleSeconds) throws Exception {
    Long clientPid = pids.get("client");
    List<Jvm> jvms = new ArrayList<>();
    try (Jvm ts = new Jvm("tablet server", pids.get("tabletserver")); Jvm dn = new Jvm("datanode", pids.get("datanode"))) {
      MBeanServerConnection dnBeans = dn.connector.getMBeanServerConnection();
      ObjectName activity = dataNodeActivity(dnBeans);
      StackSampler logWriter = new StackSampler(ts.threads, "log-writer", sampleMs);
      if (startFile != null) {
        awaitText(startFile, startText, clientPid, maxSeconds);
      }
      // Attached once the window opens: by then the client JVM is up and accepts the attach.
      jvms.add(ts);
      if (clientPid != null && alive(clientPid)) {
        jvms.add(new Jvm("client", clientPid));
      }
      Map<String, Long> ticks0 = processTicks(pids);
      Map<String, Long> ticks1 = new HashMap<>(ticks0);
      long[] machine0 = machineTicks();
      jvms.forEach(Jvm::snapshot);
      BeanSums serverWrites = new BeanSums(ts.connector.getMBeanServerConnection(),
          Jmx.pattern("TabletServer", "WritePath"),
          "Requests", "Rows", "NanosUntilAppended", "NanosUntilDurable", "OracleCalls", "OracleNanos");
      Jvm clientJvm = jvms.stream().filter(j -> j.name.equals("client")).findFirst().orElse(null);
      BeanSums clientWrites = clientJvm == null ? null
          : new BeanSums(clientJvm.connector.getMBeanServerConnection(), Jmx.pattern("Client", "Writes"),
              "Requests", "Rows", "RoundTripNanos");
      serverWrites.snapshot();
      if (clientWrites != null) {
        clientWrites.snapshot();
      }
      long packets0 = (Long) dnBeans.getAttribute(activity, "PacketsReceived");
      long bytes0 = (Long) dnBeans.getAttribute(activity, "BytesWritten");
      long t0 = System.nanoTime();
      logWriter.start();
      long deadline = t0 + maxSeconds * 1_000_000_000L;
      while (System.nanoTime() < deadline && (clientPid == null || alive(clientPid))) {
        Thread.sleep(POLL_MILLIS);
        // A process that exits (the client) keeps the CPU time last seen alive.
        ticks1.putAll(processTicks(pids));
        jvms.forEach(Jvm::snapshot);
        if (clientWrites != null) {
          clientWrites.snapshot(); // the client exits at the end: keep its last counters
        }
      }
      serverWrites.snapshot();
      logWriter.stop();
      double seconds = (System.nanoTime() - t0) / 1e9;
      jvms.forEach(Jvm::snapshot);
      long[] machine1 = machineTicks();
      Thread.sleep(settleSeconds * 1000);
      long packets = (Long) dnBeans.getAttribute(activity, "PacketsReceived") - packets0;
      long bytes = (Long) dnBeans.getAttribute(activity, "BytesWritten") - bytes0;

      Report.heading(String.format("ServerProbe %s: %.1f s window", name, seconds));
      List<Object> result = new ArrayList<>(List.of("seconds", seconds));
      Report processes = new Report("process", "pid", "cpu cores");
      Map<String, Double> cores = new LinkedHashMap<>();
      double ours = 0;
      for (Map.Entry<String, Long> p : pids.entrySet()) {
        Long before = ticks0.get(p.getKey());
        double c = before == null ? Double.NaN : (ticks1.get(p.getKey()) - before) / TICKS_PER_SECOND / seconds;
        cores.put(p.getKey(), c);
        processes.row(p.getKey(), p.getValue(), c);
        result.addAll(List.of("cpu_" + p.getKey(), c));
        ours += Double.isNaN(c) ? 0 : c;
      }
      double busy = (machine1[0] - machine0[0]) / TICKS_PER_SECOND / seconds;
      processes.row("other processes on the machine", "", busy - ours);
      processes.row("machine", Runtime.getRuntime().availableProcessors() + " cores", busy);
      processes.print();
      System.out.println();
      for (Jvm j : jvms) {
        threadTable(j, cores.get(j == ts ? "tabletserver" : "client"), seconds).print();
        System.out.println();
      }
      System.out.printf("DataNode received %,d packets (%,.0f/s) with %,d bytes (%,.0f bytes/packet)%n%n", packets,
          packets / seconds, bytes, packets == 0 ? 0.0 : (double) bytes / packets);
      logWriter.print("tablet server", 12);
      result.addAll(writePath(serverWrites, clientWrites));
      result.addAll(List.of("machine_busy_cores", busy, "other_cores", busy - ours,
          "dn_packets", packets, "dn_bytes", bytes, "log_writer_waiting_for_work",
          logWriter.share(StackSampler.LOG_WRITER_IDLE)));
      Report.result(name, result.toArray());
    } finally {
      // The tablet server's closes with the try; the client's is ours.
      for (int i = 1; i < jvms.size(); i++) {
        jvms.get(i).close();
      }
    }
  }

  /**
   * Where a write request's time went, from the tablet server's and the client's counters: until
   * its rows were queued on the log (row locks, the oracle call), until durable, and the client's
   * whole round trip; the rest of the round trip is the network path (gRPC, sockets, thread
   * hand-offs on both sides).
   */
  private static List<Object> writePath(BeanSums server, BeanSums client) {
    long requests = server.delta(0);
    if (requests == 0) {
      return List.of();
    }
    double rows = (double) server.delta(1) / requests;
    double appendedUs = server.delta(2) / 1e3 / requests;
    double durableUs = server.delta(3) / 1e3 / requests;
    double oracleUs = server.delta(4) == 0 ? 0 : server.delta(5) / 1e3 / server.delta(4);
    double roundTripUs = client == null || client.delta(0) == 0 ? Double.NaN : client.delta(2) / 1e3 / client.delta(0);
    System.out.printf("write requests at the tablet server: %,d, %.1f rows each; per request: %.0f µs until queued"
        + " on the log (locks and an oracle call of %.0f µs), %.0f µs until durable; client round trip %.0f µs,"
        + " so %.0f µs outside the server's handler (network, gRPC, thread hand-offs)%n%n",
        requests, rows, appendedUs, oracleUs, durableUs, roundTripUs, roundTripUs - durableUs);
    return List.of("write_requests", requests, "rows_per_request", rows, "server_until_appended_us", appendedUs,
        "oracle_call_us", oracleUs, "server_until_durable_us", durableUs, "client_round_trip_us", roundTripUs);
  }

  /** Waits until {@code text} is in {@code file} (or the client died, or time ran out). */
  private static void awaitText(Path file, String text, Long clientPid, long maxSeconds) throws Exception {
    long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
    while (!(Files.exists(file) && Files.readString(file).contains(text))) {
      if (System.nanoTime() > deadline || (clientPid != null && !alive(clientPid))) {
        throw new IllegalStateException("'" + text.trim() + "' never appeared in " + file);
      }
      Thread.sleep(10);
    }
  }

  private static ObjectName dataNodeActivity(MBeanServerConnection beans) throws Exception {
    Set<ObjectName> names = beans.queryNames(new ObjectName(DATANODE_ACTIVITY), null);
    if (names.size() != 1) {
      throw new IllegalStateException("expected one " + DATANODE_ACTIVITY + " MBean, found " + names);
    }
    return names.iterator().next();
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** utime + stime of each process still running, in ticks. */
  private static Map<String, Long> processTicks(Map<String, Long> pids) {
    Map<String, Long> out = new HashMap<>();
    for (Map.Entry<String, Long> p : pids.entrySet()) {
      try {
        String stat = Files.readString(Path.of("/proc/" + p.getValue() + "/stat"));
        // Fields after the command name, which is in parentheses and may contain spaces.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        out.put(p.getKey(), Long.parseLong(f[11]) + Long.parseLong(f[12])); // fields 14 and 15 of stat
      } catch (IOException e) {
        // Gone: no new figure for it.
      }
    }
    return out;
  }

  /** {busy, total} ticks of all cores since boot, from /proc/stat. */
  private static long[] machineTicks() throws IOException {
    String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    long total = 0;
    for (int i = 1; i < f.length; i++) {
      total += Long.parseLong(f[i]);
    }
    long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle + iowait
    return new long[] {total - idle, total};
  }

  /**
   * A thread's pool: "grpc-default-executor-7" and "grpc-nio-worker-ELG-3-2" lose their numbers,
   * "DataStreamer for file /x block y" its file.
   */
  static String group(String threadName) {
    String g = threadName;
    int forAt = g.indexOf(" for ");
    if (forAt > 0) {
      g = g.substring(0, forAt);
    }
    return g.replaceAll("[-_ #(]*[0-9]+([-_ #)]+[0-9]*)*$", "");
  }

  /**
   * CPU by thread group over the window. Threads born in it count from zero; the rest of the
   * process's CPU (GC and JIT compiler threads, which are not Java threads) is one line of its own.
   */
  private static Report threadTable(Jvm jvm, double processCores, double seconds) {
    Map<String, double[]> byGroup = new TreeMap<>();
    for (Map.Entry<Long, ThreadCpu> e : jvm.last.entrySet()) {
      ThreadCpu b = jvm.first.get(e.getKey());
      double c = (e.getValue().nanos() - (b == null ? 0 : b.nanos())) / 1e9 / seconds;
      double[] g = byGroup.computeIfAbsent(e.getValue().group(), k -> new double[2]);
      g[0] += c;
      g[1]++;
    }
    return ThreadCpuProfile.table(jvm.name + " threads", byGroup, processCores, 0);
  }
}
