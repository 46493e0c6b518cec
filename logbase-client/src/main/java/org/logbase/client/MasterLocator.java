package org.logbase.client;

import io.grpc.Deadline;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.Bytes;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotActiveMasterException;

/**
 * Knows the active master's address: reads it from its znode, keeps it until a ZooKeeper watch says
 * the znode changed or a caller finds the address stale. "No active master" is reported as the
 * retriable {@link NotActiveMasterException}, because during a failover it is a matter of seconds.
 */
final class MasterLocator {
  private final CuratorFramework zk;
  private final String path;
  private final long firstConnectMs;
  private volatile boolean connectedOnce;
  private final AtomicReference<String> cached = new AtomicReference<>();
  // One watcher object: ZooKeeper keeps a set of watchers per path, so re-reads do not pile them up.
  private final CuratorWatcher invalidateOnChange = event -> cached.set(null);

  /** @param firstConnectMs how long to wait for ZooKeeper before it has ever been reached */
  MasterLocator(CuratorFramework zk, String activeMasterPath, long firstConnectMs) {
    this.zk = zk;
    this.path = activeMasterPath;
    this.firstConnectMs = firstConnectMs;
  }

  /** The active master's host:port; waits for ZooKeeper at most until {@code deadline}. */
  String address(Deadline deadline) {
    String a = cached.get();
    return a != null ? a : read(deadline);
  }

  /** Forgets {@code stale} (unless a newer address replaced it already). */
  void invalidate(String stale) {
    cached.compareAndSet(stale, null);
  }

  private String read(Deadline deadline) {
    awaitConnection(deadline);
    byte[] data;
    try {
      data = zk.getData().usingWatcher(invalidateOnChange).forPath(path);
    } catch (KeeperException.NoNodeException e) {
      throw new NotActiveMasterException("no active master is registered in ZooKeeper (" + path + ")");
    } catch (KeeperException e) {
      throw new NotActiveMasterException("cannot read the active master from ZooKeeper (" + path + "): "
          + e.code());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted while reading the active master from ZooKeeper");
    } catch (Exception e) {
      throw new NotActiveMasterException("cannot read the active master from ZooKeeper (" + path + "): " + e);
    }
    String address = data == null ? "" : Bytes.utf8(data).trim();
    if (address.isEmpty()) {
      throw new NotActiveMasterException("the active-master znode " + path + " is empty");
    }
    cached.set(address);
    return address;
  }

  /**
   * Curator's blocking calls wait for a connection regardless of our deadline, so wait here first.
   * A ZooKeeper never reached gets a few seconds, not the whole deadline: most likely nothing runs
   * at that address, which a caller should hear at once (a retriable failure otherwise).
   */
  private void awaitConnection(Deadline deadline) {
    if (zk.getZookeeperClient().isConnected()) {
      connectedOnce = true;
      return;
    }
    long leftMs = Math.max(1, Math.min(Integer.MAX_VALUE, deadline.timeRemaining(TimeUnit.MILLISECONDS)));
    long waitMs = connectedOnce ? leftMs : Math.min(leftMs, firstConnectMs);
    try {
      if (zk.blockUntilConnected((int) waitMs, TimeUnit.MILLISECONDS)) {
        connectedOnce = true;
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted while connecting to ZooKeeper");
    }
    String address = zk.getZookeeperClient().getCurrentConnectionString();
    if (!connectedOnce && waitMs < leftMs) {
      List<String> unknown = unresolvedHosts(address);
      String why = unknown.isEmpty() ? "nothing seems to run there"
          : "no address is known for " + String.join(", ", unknown) + " (the name does not resolve)";
      throw new ZooKeeperUnreachableException("cannot connect to ZooKeeper at " + address + " (tried for "
          + Math.round(waitMs / 1000.0) + " s): " + why);
    }
    throw new NotActiveMasterException("cannot connect to ZooKeeper at " + address + " to find the active master");
  }

  /** The hosts of a connect string that do not resolve, looked up now. */
  static List<String> unresolvedHosts(String connectString) {
    List<String> unknown = new ArrayList<>();
    for (ClientSettings.ZkHost h : ClientSettings.hosts(connectString)) {
      String host = h.host().trim();
      try {
        InetAddress.getAllByName(host);
      } catch (UnknownHostException e) {
        unknown.add(host);
      }
    }
    return unknown;
  }
}
