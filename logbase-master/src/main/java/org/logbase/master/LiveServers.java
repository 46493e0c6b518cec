package org.logbase.master;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ZkPaths;

/**
 * The live tablet servers: the ephemeral children of {@link ZkPaths#servers()}, each named by server
 * id and holding the server's host:port. Read from ZooKeeper on every call rather than cached, so a
 * decision (placing tablets, answering a heartbeat) never uses a view older than the request.
 */
final class LiveServers {
  private final CuratorFramework zk;
  private final ZkPaths paths;

  LiveServers(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  /** Server id to host:port, sorted by id. */
  SortedMap<String, String> read() throws Exception {
    SortedMap<String, String> live = new TreeMap<>();
    List<String> ids;
    try {
      ids = zk.getChildren().forPath(paths.servers());
    } catch (KeeperException.NoNodeException e) {
      return live;
    }
    for (String id : ids) {
      try {
        live.put(id, new String(zk.getData().forPath(paths.server(id)), StandardCharsets.UTF_8));
      } catch (KeeperException.NoNodeException died) {
        // Its session ended between the listing and the read: not live.
      }
    }
    return live;
  }
}
