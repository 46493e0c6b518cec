package org.logbase.master;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.ZkPaths;

/**
 * This master's epoch: the version of {@link ZkPaths#masterEpoch()} after it wrote the znode on
 * becoming active. A master that became active later wrote it again, so the version moved on.
 *
 * <p>A master that lost its role without noticing yet (paused past its session timeout, say) can
 * still be in the middle of a decision. Two things fence it: every metadata write is a ZooKeeper
 * transaction that also checks this version ({@link #commit}), so its writes fail once a successor
 * is active; and every command it sends a tablet server carries the epoch, which the server compares
 * with the znode's version when the command arrives, so it refuses the command once a successor is
 * active.
 */
final class MasterEpoch {
  private final CuratorFramework zk;
  private final String path;
  private volatile int epoch = -1;
  private volatile boolean active;

  MasterEpoch(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.path = paths.masterEpoch();
  }

  /**
   * Takes a new epoch; called when this master becomes active, before it changes anything.
   *
   * @param self this master's address, written into the znode for operators
   */
  void activate(String self) throws Exception {
    byte[] who = self.getBytes(StandardCharsets.UTF_8);
    Stat stat;
    try {
      stat = zk.setData().forPath(path, who);
    } catch (KeeperException.NoNodeException first) {
      try {
        zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, who);
      } catch (KeeperException.NodeExistsException raced) {
        // Another master created it: write it once more, so that the version is ours.
      }
      stat = zk.setData().forPath(path, who);
    }
    epoch = stat.getVersion();
    active = true;
  }

  /**
   * Stops metadata writes. Commands still in flight keep the epoch they had: a server that heard
   * from a successor refuses them (they must not go out as epoch 0, which servers admit).
   */
  void deactivate() {
    active = false;
  }

  /** The epoch for commands to tablet servers (0 before this master was ever active). */
  long current() {
    return ZkPaths.commandEpoch(epoch);
  }

  /**
   * Runs {@code ops} in one ZooKeeper transaction with a check that no other master became active
   * since this one did.
   *
   * @throws NotActiveMasterException if one did
   * @throws KeeperException the failure of {@code op} itself (a version that moved, a missing node)
   */
  void commit(CuratorOp... ops) throws Exception {
    int mine = epoch;
    if (mine < 0 || !active) {
      throw new NotActiveMasterException("this master is not active: it changes no metadata");
    }
    CuratorOp check = zk.transactionOp().check().withVersion(mine).forPath(path);
    try {
      List<CuratorOp> all = new ArrayList<>();
      all.add(check);
      all.addAll(List.of(ops));
      zk.transaction().forOperations(all);
    } catch (KeeperException e) {
      List<OpResult> results = e.getResults();
      if (results != null && !results.isEmpty() && results.get(0) instanceof OpResult.ErrorResult err
          && err.getErr() != KeeperException.Code.OK.intValue()
          && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
        throw new NotActiveMasterException("this master was deposed (its epoch " + mine
            + " is not the current one): its change was not made");
      }
      throw e;
    }
  }
}
