package org.logbase.master;

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import org.logbase.common.TableExistsException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.ZkPaths;
import org.logbase.common.schema.TableSchema;
import org.logbase.rpc.TableMeta;

/**
 * Table metadata in ZooKeeper: one persistent znode per table holding its {@link TableMeta}. Every
 * change is a compare-and-set on the znode's version, in one ZooKeeper transaction with a check of
 * the {@link MasterEpoch}: an old master that has not yet noticed it lost its role changes nothing.
 *
 * <p>Addresses are not stored: a tablet names the server id it is assigned to, and readers fill in
 * the server's current address (see {@link TableMetas#withAddresses}).
 */
final class TableStore {
  /** A table's metadata and the znode version it was read at. */
  record Versioned(TableMeta meta, int version) {}

  private final CuratorFramework zk;
  private final ZkPaths paths;
  private final MasterEpoch epoch;

  /** @param epoch every write also checks that this master is still the active one */
  TableStore(CuratorFramework zk, ZkPaths paths, MasterEpoch epoch) {
    this.zk = zk;
    this.paths = paths;
    this.epoch = epoch;
  }

  /** The table, or empty when it does not exist. */
  Optional<Versioned> read(String name) throws Exception {
    String path = pathOf(name);
    Stat stat = new Stat();
    byte[] data;
    try {
      data = zk.getData().storingStatIn(stat).forPath(path);
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    }
    return Optional.of(new Versioned(parse(name, data), stat.getVersion()));
  }

  /** The table; {@link TableNotFoundException} when it does not exist. */
  Versioned get(String name) throws Exception {
    return read(name).orElseThrow(() -> notFound(name));
  }

  boolean exists(String name) throws Exception {
    return zk.checkExists().forPath(pathOf(name)) != null;
  }

  /** Names of all tables, sorted. */
  List<String> names() throws Exception {
    List<String> names;
    try {
      names = new ArrayList<>(zk.getChildren().forPath(paths.tables()));
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    }
    Collections.sort(names);
    return names;
  }

  /** Every table, sorted by name; tables dropped while this runs are left out. */
  List<TableMeta> all() throws Exception {
    List<TableMeta> tables = new ArrayList<>();
    for (String name : names()) {
      read(name).ifPresent(v -> tables.add(v.meta()));
    }
    return tables;
  }

  /**
   * Largest metadata of one table, well below what ZooKeeper takes in one write (jute.maxbuffer,
   * 1 MiB by default): a larger write makes ZooKeeper drop the master's session, again and again.
   */
  static final int MAX_META_BYTES = 512 * 1024;

  /** Writes a new table; {@link TableExistsException} when one of that name exists already. */
  void create(TableMeta meta) throws Exception {
    String name = meta.getSpec().getName();
    try {
      epoch.commit(zk.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(pathOf(name), bounded(meta)));
    } catch (KeeperException.NodeExistsException e) {
      throw new TableExistsException("table '" + name + "' exists already");
    }
  }

  /**
   * Applies {@code change} to the current metadata and writes the result if nobody changed the
   * table in between; otherwise reads again and retries. {@code change} may run several times and
   * may throw to refuse the update.
   */
  TableMeta update(String name, UnaryOperator<TableMeta> change) throws Exception {
    while (true) {
      Versioned current = get(name);
      TableMeta updated = change.apply(current.meta());
      try {
        epoch.commit(zk.transactionOp().setData().withVersion(current.version()).forPath(pathOf(name), bounded(updated)));
        return updated;
      } catch (KeeperException.BadVersionException raced) {
        // Another update won; retry on top of it.
      } catch (KeeperException.NoNodeException dropped) {
        throw notFound(name);
      }
    }
  }

  /**
   * Deletes the table and returns its last metadata; {@link TableNotFoundException} when absent.
   * With a request id, the drop is recorded under {@link ZkPaths#drops} in the same transaction; the
   * table's id always is, under {@link ZkPaths#droppedTables} (for the tablet servers' log collection).
   */
  TableMeta delete(String name, String requestId) throws Exception {
    createParent(paths.droppedTables());
    while (true) {
      Versioned current = get(name);
      try {
        // Versioned, so that the metadata returned (whose tablets get closed) is what was deleted.
        CuratorOp delete = zk.transactionOp().delete().withVersion(current.version()).forPath(pathOf(name));
        CuratorOp droppedId = zk.transactionOp().create()
            .forPath(paths.droppedTable(current.meta().getSpec().getId()));
        if (requestId.isEmpty()) {
          epoch.commit(delete, droppedId);
        } else {
          epoch.commit(delete, droppedId, zk.transactionOp().create().forPath(paths.drop(requestId),
              name.getBytes(StandardCharsets.UTF_8)));
        }
        return current.meta();
      } catch (KeeperException.BadVersionException raced) {
        // Changed meanwhile: delete the newer version.
      } catch (KeeperException.NoNodeException dropped) {
        throw notFound(name);
      }
    }
  }

  private void createParent(String path) throws Exception {
    try {
      zk.create().creatingParentsIfNeeded().forPath(path);
    } catch (KeeperException.NodeExistsException e) {
      // there already
    }
  }

  /** The metadata's bytes; {@link InvalidRequestException} when they are over {@link #MAX_META_BYTES}. */
  static byte[] bounded(TableMeta meta) {
    byte[] bytes = meta.toByteArray();
    if (bytes.length > MAX_META_BYTES) {
      int schema = meta.getSpec().getSerializedSize();
      throw new InvalidRequestException("the metadata of table '" + meta.getSpec().getName() + "' would take "
          + bytes.length + " bytes; at most " + MAX_META_BYTES + " (" + meta.getTabletsCount() + " tablets, "
          + (bytes.length - schema) + " bytes; column groups and columns, " + schema + " bytes): use "
          + (schema > bytes.length / 2 ? "fewer or shorter columns" : "fewer tablets or shorter split keys"));
    }
    return bytes;
  }

  private String pathOf(String name) {
    // A lookup with a name no table can have must not turn into a different znode path, a ZooKeeper
    // path error or an unbounded "does not exist" message: refuse it first.
    try {
      TableSchema.checkTableName(name);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage());
    }
    return paths.table(name);
  }

  private static TableMeta parse(String name, byte[] data) {
    try {
      return TableMeta.parseFrom(data);
    } catch (InvalidProtocolBufferException e) {
      throw new LogBaseException("metadata of table '" + name + "' in ZooKeeper is unreadable", e);
    }
  }

  private static TableNotFoundException notFound(String name) {
    return new TableNotFoundException("table '" + name + "' does not exist");
  }
}
