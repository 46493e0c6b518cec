package org.logbase.tabletserver.server;

import java.io.Closeable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.utils.ZKPaths;
import org.logbase.common.Threads;
import org.logbase.common.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes this server's tablets of a table as soon as ZooKeeper records its drop (the master writes
 * the table's id under {@link ZkPaths#droppedTables} in the transaction that deletes its metadata),
 * and refuses their opens from then on. The master's drop asks each server to close them too, but
 * a server it could not reach (cut off, paused, its close timed out) served the dropped tablets
 * until its next heartbeat was reconciled, and took writes into them from clients whose locations
 * predate the drop: acknowledged, then gone with the table. Now only until this server hears of
 * the drop from ZooKeeper, which it must stay in touch with to serve at all ({@link ServingLease}).
 * From then on no open of the table's tablets is admitted here, whatever its assignment, and a
 * tablet an open under way serves a moment later is closed too ({@link TabletCloser#closeDropped}).
 */
final class DroppedTableCloser implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DroppedTableCloser.class);

  private final TabletCloser tablets;
  private final CuratorCache dropped;
  /** How soon a close that found opens of the table's tablets still under way is tried again. */
  private static final long RETRY_MS = 1000;

  private final ScheduledExecutorService closer =
      Executors.newSingleThreadScheduledExecutor(Threads.daemon("dropped-table-closer"));

  DroppedTableCloser(CuratorFramework zk, ZkPaths paths, TabletCloser tablets) {
    this.tablets = tablets;
    this.dropped = CuratorCache.build(zk, paths.droppedTables());
    dropped.listenable().addListener(CuratorCacheListener.builder().forCreates(this::recorded).build());
  }

  void start() {
    dropped.start();
  }

  /** Every drop recorded: those made before this server started too (the cache's first load), cheap with nothing served. */
  private void recorded(ChildData node) {
    String name = ZKPaths.getNodeFromPath(node.getPath());
    int tableId;
    try {
      tableId = Integer.parseInt(name);
    } catch (NumberFormatException notATable) {
      return; // the parent itself, or something that is not a table id
    }
    closer.execute(() -> closeAll(tableId));
  }

  private void closeAll(int tableId) {
    try {
      if (!tablets.closeDropped(tableId) && !closer.isShutdown()) {
        LOG.info("opens of tablets of dropped table {} are still under way: closing what they open later", tableId);
        closer.schedule(() -> closeAll(tableId), RETRY_MS, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("closing the tablets of dropped table {} failed; the master's next reconciliation closes them: {}",
          tableId, e.toString());
    }
  }

  @Override
  public void close() {
    dropped.close();
    closer.shutdownNow();
    try {
      closer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
