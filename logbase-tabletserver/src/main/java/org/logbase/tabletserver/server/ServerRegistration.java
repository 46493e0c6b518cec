package org.logbase.tabletserver.server;

import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
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
    EphemeralClaim.take(zk, paths.server(id), address, wait, "tablet server id '" + id + "'");
    LOG.info("registered tablet server {} at {}", id, address);
  }
}
