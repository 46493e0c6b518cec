package org.logbase.tabletserver.server;

import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.ServerBusyException;
import org.logbase.common.ZkPaths;

/**
 * Admits a master's command only if no newer master has become active: its epoch is compared with
 * the one ZooKeeper holds when the command arrives ({@link ZkPaths#masterEpoch}, read after a sync).
 * A command from an older master (one deposed without noticing yet, acting on a decision its
 * successor may have undone) is refused, whether or not this server has heard from the successor,
 * so also right after this server restarted. Epoch 0 is a command that names none (tools, tests):
 * admitted.
 */
final class MasterEpochFence {
  /** The epoch of the master active now, as the cluster records it. */
  @FunctionalInterface
  interface ActiveEpoch {
    /** The epoch of the master that became active last (0: none ever did). */
    long read() throws IOException;
  }

  private final ActiveEpoch active;

  MasterEpochFence(ActiveEpoch active) {
    this.active = active;
  }

  /** The fence over {@code /master-epoch}: one sync and one read of its version per command. */
  static MasterEpochFence zooKeeper(CuratorFramework zk, ZkPaths paths) {
    String path = paths.masterEpoch();
    return new MasterEpochFence(() -> {
      ZooKeeperSync.await(zk, path);
      Stat stat;
      try {
        stat = zk.checkExists().forPath(path);
      } catch (Exception e) {
        throw new IOException("cannot read " + path + " from ZooKeeper: " + e, e);
      }
      return stat == null ? 0 : ZkPaths.commandEpoch(stat.getVersion());
    });
  }

  /**
   * Admits a command of {@code epoch}, or throws {@link NotActiveMasterException} (a newer master
   * is active) or {@link ServerBusyException} (the active epoch could not be read: nothing done, and
   * the master sends the command again).
   */
  void admit(long epoch, String what) {
    if (epoch == 0) {
      return;
    }
    long current;
    try {
      current = active.read();
    } catch (IOException e) {
      ServerBusyException busy = new ServerBusyException(what + " refused for now: the active master's epoch could not"
          + " be read from ZooKeeper (" + e.getMessage() + ")");
      busy.initCause(e);
      throw busy;
    }
    if (epoch < current) {
      throw new NotActiveMasterException(what + " refused: it comes from a master of epoch " + epoch
          + ", and a master of epoch " + current + " has become active since");
    }
  }
}
