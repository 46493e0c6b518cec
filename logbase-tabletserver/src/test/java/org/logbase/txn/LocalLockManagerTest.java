package org.logbase.txn;

class LocalLockManagerTest extends LockManagerContract {
  @Override
  protected LockManager newManager() {
    return new LocalLockManager();
  }

  @Override
  protected int contentionAttemptsPerThread() {
    return 5000;
  }
}
