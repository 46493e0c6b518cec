package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.logbase.testing.MiniZooKeeper;

/** File ids from ZooKeeper: servers taking blocks at once never get the same id, and each one's ids increase. */
class ZooKeeperFileIdsTest {
  @Test
  void serversAllocatingAtOnceGetDistinctIncreasingIds() throws Exception {
    try (MiniZooKeeper zk = new MiniZooKeeper()) {
      int servers = 4;
      List<CuratorFramework> clients = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(servers);
      try {
        List<Future<List<Long>>> got = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
          CuratorFramework c = CuratorFrameworkFactory.newClient(zk.server().getConnectString(), new RetryOneTime(100));
          c.start();
          clients.add(c);
          ZooKeeperFileIds ids = new ZooKeeperFileIds(c, "/logbase/file-ids");
          got.add(pool.submit(() -> {
            List<Long> mine = new ArrayList<>();
            for (int i = 0; i < 3 * ZooKeeperFileIds.BLOCK + 7; i++) {
              mine.add(ids.next());
            }
            return mine;
          }));
        }
        Set<Long> all = new HashSet<>();
        for (Future<List<Long>> f : got) {
          List<Long> mine = f.get();
          for (int i = 1; i < mine.size(); i++) {
            assertTrue(mine.get(i) > mine.get(i - 1), "a server's ids increase: " + mine);
          }
          mine.forEach(id -> assertTrue(all.add(id), "id " + id + " handed out twice"));
        }
        assertEquals(servers * (3 * ZooKeeperFileIds.BLOCK + 7), all.size());
        // A server that restarts takes a fresh block: above everything handed out before.
        long next = new ZooKeeperFileIds(clients.get(0), "/logbase/file-ids").next();
        assertTrue(next > all.stream().mapToLong(Long::longValue).max().orElseThrow(), "after a restart: " + next);
        // A server whose files go higher than the znode (ZooKeeper's data lost) moves it above them.
        ZooKeeperFileIds restarted = new ZooKeeperFileIds(clients.get(1), "/logbase/file-ids");
        restarted.reserveAbove(1_000_000);
        assertTrue(restarted.next() > 1_000_000);
        assertTrue(new ZooKeeperFileIds(clients.get(2), "/logbase/file-ids").next() > 1_000_000, "for every server");
      } finally {
        pool.shutdownNow();
        clients.forEach(CuratorFramework::close);
      }
    }
  }
}
