package org.logbase.tabletserver.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.logbase.common.ZkPaths;
import org.logbase.log.LogSeals;

/**
 * Log seals for the servers of a cluster: a persistent znode per sealed segment ({@link
 * ZkPaths#logSeal}), created once; a server that finds it created already takes the length in it.
 * Seals never change, so the ones read are remembered; an absent one is asked again each time.
 */
final class ZooKeeperLogSeals implements LogSeals {
  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final Map<Long, Long> known = new ConcurrentHashMap<>();

  ZooKeeperLogSeals(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  @Override
  public long sealedLength(long segment) throws IOException {
    Long k = known.get(segment);
    if (k != null) {
      return k;
    }
    try {
      // Synced first: the seal may have been written through another ZooKeeper server moments ago.
      ZooKeeperSync.await(zk, paths.logSeal(segment));
      return remember(segment, ByteBuffer.wrap(zk.getData().forPath(paths.logSeal(segment))).getLong());
    } catch (KeeperException.NoNodeException e) {
      return UNSEALED;
    } catch (Exception e) {
      throw new IOException("cannot read the seal of log segment " + segment + " from ZooKeeper: " + e, e);
    }
  }

  @Override
  public long seal(long segment, long length) throws IOException {
    try {
      zk.create().creatingParentsIfNeeded().forPath(paths.logSeal(segment),
          ByteBuffer.allocate(Long.BYTES).putLong(length).array());
      return remember(segment, length);
    } catch (KeeperException.NodeExistsException e) {
      long sealed = sealedLength(segment);
      if (sealed == UNSEALED) {
        throw new IOException("the seal of log segment " + segment + " exists and then does not", e);
      }
      return sealed;
    } catch (Exception e) {
      throw new IOException("cannot seal log segment " + segment + " in ZooKeeper: " + e, e);
    }
  }

  private long remember(long segment, long length) {
    known.put(segment, length);
    return length;
  }
}
