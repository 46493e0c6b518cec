package org.logbase.master;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.Echo;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drops done, by request id ({@link ZkPaths#drops}: a znode per drop, written in the drop's own
 * transaction by {@link TableStore#delete}), so that a drop sent again after its answer was lost in
 * a master failover is answered as done instead of "table not found", and drops nothing (not even
 * a table of the same name created since). At least the newest {@link #KEPT} / 2, and at most
 * {@link #KEPT}, are kept.
 */
final class DoneDrops {
  private static final Logger LOG = LoggerFactory.getLogger(DoneDrops.class);
  /** Drops remembered; a client retries for seconds, so the last thousand are plenty. */
  static final int KEPT = 1000;
  /** Longest request id accepted (a client sends a UUID: 36). */
  static final int MAX_REQUEST_ID = 64;

  private final CuratorFramework zk;
  private final ZkPaths paths;

  DoneDrops(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  /** Refuses a request id that could not name a znode. */
  static void check(String requestId) {
    if (requestId.length() > MAX_REQUEST_ID || !requestId.matches("[A-Za-z0-9_-]*")) {
      throw new InvalidRequestException("not a request id: '" + Echo.of(requestId) + "' (letters, digits, '_' and"
          + " '-', at most " + MAX_REQUEST_ID + ")");
    }
  }

  /** Whether request {@code requestId} dropped a table already. */
  boolean done(String requestId) throws Exception {
    return !requestId.isEmpty() && zk.checkExists().forPath(paths.drop(requestId)) != null;
  }

  /** Past {@link #KEPT} drops, forgets the oldest half (so that this is rare). */
  void prune() throws Exception {
    List<String> ids = zk.getChildren().forPath(paths.drops());
    if (ids.size() <= KEPT) {
      return;
    }
    record Aged(String id, long ctime) {}
    List<Aged> aged = new ArrayList<>();
    for (String id : ids) {
      Stat stat = zk.checkExists().forPath(paths.drop(id));
      if (stat != null) {
        aged.add(new Aged(id, stat.getCtime()));
      }
    }
    aged.sort(Comparator.comparingLong(Aged::ctime));
    int forget = aged.size() - KEPT / 2;
    for (Aged a : aged.subList(0, forget)) {
      try {
        zk.delete().forPath(paths.drop(a.id()));
      } catch (KeeperException.NoNodeException gone) {
        // Pruned by another master's pass.
      }
    }
    LOG.info("forgot the {} oldest drops done (the newest {} are kept)", forget, KEPT / 2);
  }
}
