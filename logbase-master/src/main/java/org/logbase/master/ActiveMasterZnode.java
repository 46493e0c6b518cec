package org.logbase.master;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral znode {@code /active-master} (data = host:port) through which clients and tablet
 * servers find the active master: claimed by the elected master, released when it stands down, and
 * followed by every master through a cache, so a standby can name the active master.
 */
final class ActiveMasterZnode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveMasterZnode.class);
  /** How long to wait for a stale znode to go before checking again whether to keep waiting. */
  private static final Duration STALE_ZNODE_POLL = Duration.ofSeconds(1);

  /** Told when the znode names a master, or disappears. */
  interface Watcher {
    void announced(String address);

    void gone(String address);
  }

  private final CuratorFramework zk;
  private final String path;
  private final CuratorCache cache;

  ActiveMasterZnode(CuratorFramework zk, String path) {
    this.zk = zk;
    this.path = path;
    this.cache = CuratorCache.build(zk, path, CuratorCache.Options.SINGLE_NODE_CACHE);
  }

  /** Starts following the znode. */
  void start(Watcher watcher) {
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forCreatesAndChanges((before, now) -> watcher.announced(utf8(now.getData())))
        .forDeletes(gone -> watcher.gone(utf8(gone.getData())))
        .build());
    cache.start();
  }

  /** The address the znode names, as last seen. */
  Optional<String> announced() {
    return cache.get(path).map(d -> utf8(d.getData()));
  }

  /**
   * Creates the znode naming {@code self}. While a previous master's znode still exists (its session
   * has not expired yet) waits for ZooKeeper to remove it, as long as {@code keepTrying} holds. A
   * znode owned by this client's own session (left from before a connection blip) is taken over.
   * Returns whether the znode is ours.
   */
  boolean claim(String self, BooleanSupplier keepTrying) throws Exception {
    byte[] data = self.getBytes(StandardCharsets.UTF_8);
    while (keepTrying.getAsBoolean()) {
      try {
        zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
        return true;
      } catch (KeeperException.NodeExistsException e) {
        Stat stat = new Stat();
        byte[] holder;
        try {
          holder = zk.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException gone) {
          continue;
        }
        if (stat.getEphemeralOwner() == sessionId()) {
          zk.setData().withVersion(stat.getVersion()).forPath(path, data);
          return true;
        }
        LOG.info("elected; waiting for the previous active master {} to disappear from ZooKeeper with its"
            + " session", utf8(holder));
        awaitDeletion();
      }
    }
    return false;
  }

  /** Deletes the znode if this client's session owns it; failures are logged, not thrown. */
  void release() {
    try {
      Stat stat = zk.checkExists().forPath(path);
      if (stat != null && stat.getEphemeralOwner() == sessionId()) {
        zk.delete().withVersion(stat.getVersion()).forPath(path);
      }
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
      // Someone else's by now, or gone: nothing of ours to remove.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shutting down
    } catch (Exception e) {
      LOG.warn("could not remove the active-master znode (it goes with this master's session): {}", e.toString());
    }
  }

  @Override
  public void close() {
    cache.close();
  }

  private void awaitDeletion() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    CuratorWatcher watcher = event -> gone.countDown();
    if (zk.checkExists().usingWatcher(watcher).forPath(path) != null) {
      gone.await(STALE_ZNODE_POLL.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private long sessionId() throws Exception {
    return zk.getZookeeperClient().getZooKeeper().getSessionId();
  }

  private static String utf8(byte[] data) {
    return data == null ? "" : new String(data, StandardCharsets.UTF_8);
  }
}
