package org.logbase.tabletserver.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ephemeral znode only one live process may hold. One left by a dead incarnation of the same
 * process disappears when its session expires: {@link #take} waits for that, rather than act in
 * the name of a process that may still be alive.
 */
final class EphemeralClaim {
  private static final Logger LOG = LoggerFactory.getLogger(EphemeralClaim.class);

  private EphemeralClaim() {}

  /**
   * Creates {@code path} holding {@code data}, waiting at most {@code wait} for a znode there to go.
   *
   * @param what what the znode stands for, for the log and the refusal ("tablet server id 'ts1'")
   * @throws IllegalStateException if another live process still holds it after {@code wait}
   */
  static void take(CuratorFramework zk, String path, String data, Duration wait, String what) throws Exception {
    Instant deadline = Instant.now().plus(wait);
    boolean logged = false;
    while (true) {
      try {
        zk.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(path, data.getBytes(StandardCharsets.UTF_8));
        return;
      } catch (KeeperException.NodeExistsException e) {
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException(what + " is held by another live process (" + holder(zk, path)
              + "): is it running already?", e);
        }
        if (!logged) {
          LOG.info("{} is still held ({}); waiting up to {} s for an earlier incarnation's session to expire", what,
              holder(zk, path), wait.toSeconds());
          logged = true;
        }
        Thread.sleep(500); // polling ZooKeeper until the old session expires; nothing to await
      }
    }
  }

  /** Whether {@code path} is still held by this client's session. */
  static boolean held(CuratorFramework zk, String path) throws Exception {
    Stat stat = zk.checkExists().forPath(path);
    return stat != null && stat.getEphemeralOwner() == zk.getZookeeperClient().getZooKeeper().getSessionId();
  }

  private static String holder(CuratorFramework zk, String path) {
    try {
      return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
    } catch (Exception gone) {
      return "gone meanwhile";
    }
  }
}
