package org.logbase.master;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.ZkPaths;

/**
 * The timestamp bound in the persistent znode {@link ZkPaths#timestampBound()}, as a decimal
 * number (readable with any ZooKeeper tool). Every write names the version it replaces, so two
 * masters can never both move the bound from the same state.
 */
final class TimestampBoundZnode implements TimestampBoundStore {
  private final CuratorFramework zk;
  private final String path;

  TimestampBoundZnode(CuratorFramework zk, ZkPaths paths) {
    this.zk = zk;
    this.path = paths.timestampBound();
  }

  @Override
  public boolean connected() {
    // Curator flips this on ZooKeeper's Disconnected event, before its SUSPENDED state reaches the
    // election: the earliest moment this master can know it may be losing its session.
    return zk.getZookeeperClient().isConnected();
  }

  @Override
  public Optional<Versioned> read() throws Exception {
    Stat stat = new Stat();
    byte[] data;
    try {
      data = zk.getData().storingStatIn(stat).forPath(path);
    } catch (KeeperException.NoNodeException none) {
      return Optional.empty();
    }
    return Optional.of(new Versioned(decode(data), stat.getVersion()));
  }

  @Override
  public int write(long bound, int expectedVersion) throws Exception {
    byte[] data = Long.toString(bound).getBytes(StandardCharsets.UTF_8);
    if (expectedVersion == NONE) {
      try {
        zk.create().creatingParentsIfNeeded().forPath(path, data);
        return 0;
      } catch (KeeperException.NodeExistsException raced) {
        throw new ConflictException("the timestamp bound " + path + " was created by another master");
      }
    }
    try {
      return zk.setData().withVersion(expectedVersion).forPath(path, data).getVersion();
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException raced) {
      throw new ConflictException("the timestamp bound " + path + " was changed by another master (expected version "
          + expectedVersion + ")");
    }
  }

  private long decode(byte[] data) {
    String text = data == null ? "" : new String(data, StandardCharsets.UTF_8).trim();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      // Guessing a value could hand out timestamps that went backwards: refuse to take over instead.
      throw new IllegalStateException("the timestamp bound " + path + " holds '" + text
          + "', not a decimal timestamp; fix or remove it (a removed bound lets timestamps restart at the clock)");
    }
  }
}
