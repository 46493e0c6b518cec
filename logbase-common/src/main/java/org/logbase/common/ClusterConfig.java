package org.logbase.common;

/** Settings keys shared by masters, tablet servers and clients (defaults in conf/logbase.properties). */
public final class ClusterConfig {
  /** ZooKeeper connect string, e.g. {@code localhost:2181}. */
  public static final String ZK_CONNECT = "zookeeper.connect";
  /** Default ZooKeeper when the configuration names none: a local single server. */
  public static final String DEFAULT_ZK_CONNECT = "localhost:2181";
  /** Root znode of this cluster. */
  public static final String ZK_ROOT = "zookeeper.root";
  /** Session timeout; a process whose session expires is considered dead. */
  public static final String ZK_SESSION_TIMEOUT_MS = "zookeeper.session.timeout.ms";
  public static final int DEFAULT_ZK_SESSION_TIMEOUT_MS = 6000;
  /** Largest RPC message a server accepts or a client receives. */
  public static final String RPC_MAX_MESSAGE_BYTES = "rpc.max.message.bytes";
  public static final long DEFAULT_RPC_MAX_MESSAGE_BYTES = 64L << 20;
  /** Deadline of a client request. */
  public static final String RPC_DEADLINE_MS = "rpc.deadline.ms";
  public static final long DEFAULT_RPC_DEADLINE_MS = 30_000;
  /** Root of the shared file system under which every tablet server keeps its log and checkpoints. */
  public static final String FS_ROOT = "logbase.fs.root";

  private ClusterConfig() {}
}
