package org.logbase.chaos.nemesis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The faults a nemesis injects; names as on the command line. */
public enum Fault {
  /** kill -9 a tablet server, restart it after 0-3 s. */
  KILL_TABLETSERVER("kill-tabletserver", 3),
  /** kill -9 a tablet server, restart it, kill it again while it recovers, restart it. */
  KILL_IN_RECOVERY("kill-in-recovery", 2),
  /**
   * kill -9 a tablet server and restart it starved of CPU (10% of a core) until 5-15 s after it is
   * ready: its recovery and the reopening of its tablets crawl while clients already use the first.
   */
  SLOW_RECOVERY("slow-recovery", 2),
  /** kill -9 the active master, restart it after 0-3 s (the standby takes over meanwhile). */
  KILL_MASTER("kill-master", 2),
  /** SIGSTOP a tablet server for 1 s up to past its ZooKeeper session, then SIGCONT. */
  PAUSE_TABLETSERVER("pause-tabletserver", 1),
  /** SIGSTOP the active master past its ZooKeeper session, then SIGCONT. */
  PAUSE_MASTER("pause-master", 1),
  /**
   * Cut a tablet server off from ZooKeeper for 1 s up to past its session, then restore the link:
   * clients and masters still reach it, and it runs on, while its session expires and its tablets
   * move (a partition; {@link org.logbase.chaos.cluster.Link}).
   */
  PARTITION_TABLETSERVER("partition-tabletserver", 1),
  /** Cut the active master off from ZooKeeper past its session; tablet servers still reach it. */
  PARTITION_MASTER("partition-master", 1),
  /**
   * Cut a tablet server off from clients, masters and the other servers for 1-15 s, both ways, while
   * it keeps ZooKeeper (so its tablets stay with it): requests in flight, a transaction's prepare or
   * decision among them, arrive only when the link is restored, long after their senders gave up.
   */
  ISOLATE_TABLETSERVER("isolate-tabletserver", 1),
  /** Starve a tablet server of CPU (5% of a core) for 5-15 s. */
  STARVE_TABLETSERVER("starve-tabletserver", 1),
  /** kill -9 ZooKeeper, restart it after 1-5 s (same data and port). */
  KILL_ZOOKEEPER("kill-zookeeper", 0.5),
  /** kill -9 a client process (its commits stall after prepare now and then), start a new one. */
  KILL_CLIENT("kill-client", 1),
  /**
   * Change the block compression (none, lz4, zstd) of a column group of a workload table while the
   * load runs: every server changes the served tablets' schema in place, and one whose reopen fails
   * (killed, paused, cut off) gets it again at its next heartbeat. Compression is what an alter may
   * change under the checkers: fewer versions or a time to live would drop what they read.
   */
  ALTER_TABLE("alter-table", 1),
  /**
   * Move a random tablet of a workload table to another live tablet server while the load runs
   * (the admin's move: close with a checkpoint where it is, open on the target from it). Its victim
   * is the tablet: it overlaps any other fault, a kill of either server included.
   */
  MOVE_TABLET("move-tablet", 1),
  /**
   * Split a random tablet of a workload table about its middle while the load runs (no data copied:
   * the daughters read the parent's files), at most until a table has {@link #MAX_SPLIT_TABLETS}.
   */
  SPLIT_TABLET("split-tablet", 0.5),
  /**
   * kill -9 the DataNode (on HDFS, the only one: every log's pipeline breaks), restart it after 0-5 s.
   * Only with the logs on HDFS ({@code --hdfs}).
   */
  KILL_DATANODE("kill-datanode", 1),
  /**
   * SIGSTOP the DataNode for 1-20 s, then SIGCONT: every flush waits, with the tablet servers
   * running on. Only on HDFS.
   */
  PAUSE_DATANODE("pause-datanode", 1),
  /**
   * kill -9 the NameNode, restart it after 0-3 s: no file is created, closed, recovered or listed
   * meanwhile, while flushes into open blocks go on. Only on HDFS.
   */
  KILL_NAMENODE("kill-namenode", 0.5);

  /** A table with this many tablets is split no further by the nemesis. */
  public static final int MAX_SPLIT_TABLETS = 24;

  private final String label;
  private final double weight;

  /** @param weight how often the nemesis picks it, relative to the others */
  Fault(String label, double weight) {
    this.label = label;
    this.weight = weight;
  }

  public double weight() {
    return weight;
  }

  public String label() {
    return label;
  }

  /** Whether the fault kills a tablet server or a master (what the soak counts). */
  public boolean killsServer() {
    return this == KILL_TABLETSERVER || this == KILL_IN_RECOVERY || this == SLOW_RECOVERY || this == KILL_MASTER;
  }

  /** Whether the fault is on HDFS's own daemons, which a run on the local file system does not have. */
  public boolean needsHdfs() {
    return this == KILL_DATANODE || this == PAUSE_DATANODE || this == KILL_NAMENODE;
  }

  /** Parses "all" or a comma-separated list of labels. */
  public static Set<Fault> parse(String s) {
    if (s.equals("all")) {
      return EnumSet.allOf(Fault.class);
    }
    Set<Fault> out = EnumSet.noneOf(Fault.class);
    out.addAll(parseList(s));
    return out;
  }

  /** "none" or a comma-separated list of labels, in their order (repeats kept). */
  public static List<Fault> parseList(String s) {
    if (s.equals("none") || s.isEmpty()) {
      return List.of();
    }
    List<Fault> out = new ArrayList<>();
    for (String part : s.split(",")) {
      String want = part.trim().toLowerCase(Locale.ROOT);
      out.add(Arrays.stream(values()).filter(f -> f.label.equals(want)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("unknown fault '" + part + "'; known: all, none, "
              + Arrays.stream(values()).map(Fault::label).collect(Collectors.joining(", ")))));
    }
    return out;
  }
}
