package org.logbase.tabletserver.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Announces a live tablet server with an ephemeral znode {@code /servers/<id>} holding its address,
 * and tells the server to stop the moment its ZooKeeper session is lost: after that the master
 * may hand its tablets to others, so it must not serve another request.
 */
final class ServerRegistration {
  private static final Logger LOG = LoggerFactory.getLogger(ServerRegistration.class);

  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final String id;

  ServerRegistration(CuratorFramework zk, ZkPaths paths, String id) {
    this.zk = zk;
    this.paths = paths;
    this.id = id;
  }

  /**
   * Creates the znode. A znode of the same id left by a dead incarnation disappears when its
   * session expires; wait for that rather than take over a possibly live server's identity.
   */
  void register(String address, Duration wait, Runnable onSessionLost) throws Exception {
    zk.getConnectionStateListenable().addListener((client, state) -> {
      if (state == ConnectionState.LOST) {
        LOG.error("ZooKeeper session of tablet server {} lost: stopping at once", id);
        onSessionLost.run();
      }
    });
    Instant deadline = Instant.now().plus(wait);
    while (true) {
      try {
        zk.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(paths.server(id), address.getBytes(StandardCharsets.UTF_8));
        LOG.info("registered tablet server {} at {}", id, address);
        return;
      } catch (KeeperException.NodeExistsException e) {
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException("tablet server id '" + id + "' is registered by another live process ("
              + new String(zk.getData().forPath(paths.server(id)), StandardCharsets.UTF_8) + ")", e);
        }
        LOG.info("znode of an earlier incarnation of {} still exists; waiting for its session to expire", id);
        Thread.sleep(500); // polling ZooKeeper until the old session expires; nothing to await
      }
    }
  }
}
