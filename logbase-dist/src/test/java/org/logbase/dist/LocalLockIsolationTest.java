package org.logbase.dist;

/** {@link IsolationContract} with the owner-local lock table (the default). */
class LocalLockIsolationTest extends IsolationContract {
  @Override
  String lockManager() {
    return "local";
  }
}
