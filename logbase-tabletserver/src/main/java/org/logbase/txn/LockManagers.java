package org.logbase.txn;

import org.apache.curator.framework.CuratorFramework;
import org.logbase.common.Config;
import org.logbase.common.ZkPaths;

/** Picks the lock manager that {@code txn.lock.manager} names: {@code local} (default) or {@code zookeeper}. */
public final class LockManagers {
  public static final String LOCK_MANAGER = "txn.lock.manager";

  private LockManagers() {}

  public static LockManager create(Config config, CuratorFramework zk, ZkPaths paths) {
    String kind = config.getString(LOCK_MANAGER, "local").trim();
    return switch (kind) {
      case "local" -> new LocalLockManager();
      case "zookeeper" -> new ZooKeeperLockManager(zk, paths.locks());
      default -> throw new IllegalArgumentException(LOCK_MANAGER + "=" + kind + ": expected local or zookeeper");
    };
  }
}
