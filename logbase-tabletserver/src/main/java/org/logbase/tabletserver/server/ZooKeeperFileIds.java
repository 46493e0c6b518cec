package org.logbase.tabletserver.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.logbase.files.FileIds;

/**
 * Data-file ids for the servers of a cluster: a znode holds the next unallocated id, and a server
 * takes a block of {@value #BLOCK} at a time by a conditional update (retried when another server
 * got there first). A block is never handed out twice, and each server's ids increase.
 */
final class ZooKeeperFileIds implements FileIds {
  static final long BLOCK = 64;

  private final CuratorFramework zk;
  private final String path;
  private long next;
  private long end;

  ZooKeeperFileIds(CuratorFramework zk, String path) {
    this.zk = zk;
    this.path = path;
  }

  @Override
  public synchronized long next() throws IOException {
    if (next >= end) {
      reserve();
    }
    return FileIds.check(next++);
  }

  @Override
  public synchronized void reserveAbove(long id) throws IOException {
    if (next > id) {
      return;
    }
    next = 0;
    end = 0; // this block is too low: the next id comes from a block above id
    try {
      while (true) {
        Stat stat = new Stat();
        try {
          long current = ByteBuffer.wrap(zk.getData().storingStatIn(stat).forPath(path)).getLong();
          if (current > id) {
            return;
          }
          zk.setData().withVersion(stat.getVersion()).forPath(path, bytes(id + 1));
          return;
        } catch (KeeperException.NoNodeException e) {
          try {
            zk.create().creatingParentsIfNeeded().forPath(path, bytes(id + 1));
            return;
          } catch (KeeperException.NodeExistsException raced) {
            // read it again
          }
        } catch (KeeperException.BadVersionException raced) {
          // another server moved it: read it again
        }
      }
    } catch (Exception e) {
      throw new IOException("could not raise the data-file ids in ZooKeeper at " + path + " above " + id + ": " + e, e);
    }
  }

  private void reserve() throws IOException {
    try {
      while (true) {
        Stat stat = new Stat();
        long start;
        try {
          start = ByteBuffer.wrap(zk.getData().storingStatIn(stat).forPath(path)).getLong();
        } catch (KeeperException.NoNodeException e) {
          try {
            zk.create().creatingParentsIfNeeded().forPath(path, bytes(1 + BLOCK));
            next = 1;
            end = 1 + BLOCK;
            return;
          } catch (KeeperException.NodeExistsException raced) {
            continue;
          }
        }
        try {
          zk.setData().withVersion(stat.getVersion()).forPath(path, bytes(start + BLOCK));
          next = start;
          end = start + BLOCK;
          return;
        } catch (KeeperException.BadVersionException raced) {
          // another server took this block: read again
        }
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("could not reserve data-file ids in ZooKeeper at " + path + ": " + e, e);
    }
  }

  private static byte[] bytes(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }
}
