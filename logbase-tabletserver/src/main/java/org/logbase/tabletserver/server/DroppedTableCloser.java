package org.logbase.tabletserver.server;

import java.io.Closeable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.utils.ZKPaths;
import org.logbase.common.Threads;
import org.logbase.common.ZkPaths;
import org.logbase.tablet.Tablet;
import org.logbase.txn.TxnManager;
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
 */
final class DroppedTableCloser implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DroppedTableCloser.class);

  private final ServedTablets tablets;
  private final TxnManager txns;
  private final long drainMs;
  private final CuratorCache dropped;
  private final ExecutorService closer = Executors.newSingleThreadExecutor(Threads.daemon("dropped-table-closer"));

  DroppedTableCloser(CuratorFramework zk, ZkPaths paths, ServedTablets tablets, TxnManager txns, long drainMs) {
    this.tablets = tablets;
    this.txns = txns;
    this.drainMs = drainMs;
    this.dropped = CuratorCache.build(zk, paths.droppedTables());
    dropped.listenable().addListener(CuratorCacheListener.builder().forCreates(this::recorded).build());
  }

  void start() {
    dropped.start();
  }

  private void recorded(ChildData node) {
    String name = ZKPaths.getNodeFromPath(node.getPath());
    int tableId;
    try {
      tableId = Integer.parseInt(name);
    } catch (NumberFormatException notATable) {
      return; // the parent itself, or something that is not a table id
    }
    if (!tablets.servedOf(tableId).isEmpty()) {
      closer.execute(() -> closeAll(tableId));
    }
  }

  private void closeAll(int tableId) {
    for (Tablet t : tablets.servedOf(tableId)) {
      String table = t.descriptor().schema().name();
      int tabletId = t.descriptor().tabletId();
      try {
        // Every open of it refused from now on, whatever its assignment; one under way waited for.
        tablets.beginClose(table, tableId, tabletId, Long.MAX_VALUE, drainMs);
        Tablet now = tablets.findServed(table, tableId, tabletId);
        if (now != null) {
          txns.closeForWrites(now, "its table was dropped", drainMs);
          tablets.closeDrained(now);
          LOG.info("closed tablet {} of dropped table '{}' (id {}): ZooKeeper records its drop", tabletId, table,
              tableId);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        LOG.warn("closing tablet {} of dropped table '{}' (id {}) failed; the master's next reconciliation closes it: {}",
            tabletId, table, tableId, e.toString());
      }
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
