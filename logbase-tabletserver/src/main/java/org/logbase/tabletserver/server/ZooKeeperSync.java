package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * A ZooKeeper sync that is waited for. Curator runs every sync in the background and returns at
 * once; a read that follows is ordered after it only while the session is connected. While it is
 * not, Curator queues the sync again and the read's own retries can run first, against a follower
 * that has not caught up. So the reads that must see what another server or the master wrote
 * moments ago wait for the sync's callback first.
 */
final class ZooKeeperSync {
  private ZooKeeperSync() {}

  /**
   * Returns once this session's server has caught up with the leader for {@code path}.
   *
   * @throws IOException if the sync failed or did not finish within the client's connection timeout
   */
  static void await(CuratorFramework zk, String path) throws IOException {
    CompletableFuture<Integer> done = new CompletableFuture<>();
    long timeoutMs = zk.getZookeeperClient().getConnectionTimeoutMs();
    int rc;
    try {
      zk.sync().inBackground((client, event) -> done.complete(event.getResultCode())).forPath(path);
      rc = done.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while syncing " + path + " with ZooKeeper", e);
    } catch (TimeoutException e) {
      throw new IOException("ZooKeeper sync of " + path + " did not finish within " + timeoutMs + " ms", e);
    } catch (Exception e) {
      throw new IOException("ZooKeeper sync of " + path + " failed: " + e, e);
    }
    // ZooKeeper's sync does not look at the path (a missing one answers OK): NONODE is taken as OK
    // all the same, and left to the read to report.
    if (rc != KeeperException.Code.OK.intValue() && rc != KeeperException.Code.NONODE.intValue()) {
      throw new IOException("ZooKeeper sync of " + path + " failed: " + KeeperException.Code.get(rc));
    }
  }
}
