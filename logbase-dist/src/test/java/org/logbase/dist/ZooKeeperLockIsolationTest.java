package org.logbase.dist;

/** {@link IsolationContract} with per-row ZooKeeper locks, the paper's design. */
class ZooKeeperLockIsolationTest extends IsolationContract {
  @Override
  String lockManager() {
    return "zookeeper";
  }
}
