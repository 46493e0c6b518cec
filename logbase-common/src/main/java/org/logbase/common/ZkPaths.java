package org.logbase.common;

/**
 * Where LogBase keeps its cluster state in ZooKeeper, below a root (default {@code /logbase}):
 *
 * <pre>
 *   /masters              Curator LeaderLatch: one ephemeral sequential node per master; lowest leads
 *   /active-master        ephemeral, data = host:port of the active master
 *   /servers/&lt;id&gt;         ephemeral, data = host:port of a live tablet server
 *   /tables/&lt;name&gt;        TableMeta (protobuf): schema, tablets, assignment; updated by compare-and-set
 *   /table-ids            counter znode; its version is the last table id handed out
 *   /timestamp-bound      the timestamp oracle's persisted upper bound; updated by compare-and-set
 *   /locks/&lt;table id&gt;/&lt;key&gt;  persistent, one per write-locked row (key in hex), data = holder's txnId
 * </pre>
 */
public final class ZkPaths {
  public static final String DEFAULT_ROOT = "/logbase";

  private final String root;

  public ZkPaths(String root) {
    if (!root.startsWith("/") || (root.length() > 1 && root.endsWith("/"))) {
      throw new IllegalArgumentException("ZooKeeper root must be an absolute path without trailing '/': " + root);
    }
    this.root = root;
  }

  public static ZkPaths from(Config c) {
    return new ZkPaths(c.getString(ClusterConfig.ZK_ROOT, DEFAULT_ROOT));
  }

  public String root() {
    return root;
  }

  public String masters() {
    return root + "/masters";
  }

  public String activeMaster() {
    return root + "/active-master";
  }

  public String servers() {
    return root + "/servers";
  }

  public String server(String id) {
    return servers() + "/" + id;
  }

  /**
   * The ephemeral znode of the one process acting as tablet server {@code id}, taken before it
   * touches its log (its registration under {@link #servers()} comes once it serves).
   */
  public String serverClaim(String id) {
    return root + "/server-claims/" + id;
  }

  public String tables() {
    return root + "/tables";
  }

  public String table(String name) {
    return tables() + "/" + name;
  }

  public String tableIds() {
    return root + "/table-ids";
  }

  /** The next data-file id not handed out yet (an i64; tablet servers take blocks of it). */
  public String fileIds() {
    return root + "/file-ids";
  }

  /** The timestamp oracle's bound: no timestamp at or above it has been handed out (decimal). */
  public String timestampBound() {
    return root + "/timestamp-bound";
  }

  /** Tablet servers being decommissioned: a persistent child per server id (its tablets move away). */
  public String draining() {
    return root + "/draining";
  }

  public String draining(String serverId) {
    return draining() + "/" + serverId;
  }

  /**
   * The master epoch: every master that becomes active writes it, and its version afterwards is that
   * master's epoch. Metadata writes check it (a deposed master's fail); commands to tablet servers
   * carry it (a server refuses one older than the newest it has seen).
   */
  public String masterEpoch() {
    return root + "/master-epoch";
  }

  /**
   * The epoch that the commands of the master which left {@link #masterEpoch()} at
   * {@code znodeVersion} carry (0, which servers admit, is never one: it means "none given").
   */
  public static long commandEpoch(int znodeVersion) {
    return znodeVersion + 1L;
  }

  /**
   * Drops done: a persistent child per drop request id (its data: the table's name), written with
   * the drop, so that a drop sent again after a master failover finds it was done.
   */
  public String drops() {
    return root + "/drops";
  }

  public String drop(String requestId) {
    return drops() + "/" + requestId;
  }

  /**
   * Sealed log segments: a persistent child per segment whose writer is gone, named by its file id
   * (20 digits), holding the length every reader stops at (an i64).
   */
  public String logSeals() {
    return root + "/log-seals";
  }

  public String logSeal(long segment) {
    return logSeals() + "/" + String.format("%020d", segment);
  }

  /**
   * Ids of dropped tables: a persistent child per table id, created with the drop, so that tablet
   * servers' log collection no longer counts the dropped tablets' manifests.
   */
  public String droppedTables() {
    return root + "/dropped-tables";
  }

  public String droppedTable(int tableId) {
    return droppedTables() + "/" + tableId;
  }

  /** Whether the master's balancer runs: "on" or "off" (absent: on). */
  public String balancer() {
    return root + "/balancer";
  }

  /** Row write locks when transactions lock in ZooKeeper: {@code <table id>/<row key in hex>} below it. */
  public String locks() {
    return root + "/locks";
  }
}
