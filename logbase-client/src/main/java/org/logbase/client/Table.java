package org.logbase.client;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.GroupVersion;
import org.logbase.rpc.Mutation;

/**
 * Reads and writes the rows of one table. Each call goes to the tablet server holding the key,
 * follows tablets that moved, and fails with a typed {@link org.logbase.common.LogBaseException}
 * (for example {@link org.logbase.common.TableNotFoundException} or
 * {@link org.logbase.common.ColumnNotInSchemaException}). Thread-safe; cheap to create.
 */
public final class Table {
  private final String name;
  private final TabletRpc rpc;
  /** The newest timestamp issued, for checking a read's as-of; null: not checked (a transaction's own snapshot). */
  private final LongSupplier newest;

  /** A transaction's handle: it reads at its own snapshot, which the oracle issued. */
  Table(String name, TabletRpc rpc) {
    this(name, rpc, null);
  }

  /** @param newest a fresh timestamp from the oracle, asked for only by reads as of a given timestamp */
  Table(String name, TabletRpc rpc, LongSupplier newest) {
    this.name = name;
    this.rpc = rpc;
    this.newest = newest;
  }

  /**
   * Refuses an as-of beyond the newest timestamp the oracle has issued: commits landing later could
   * still get timestamps at or below it, so two reads there could differ.
   */
  private long checkedAsOf(long asOf) {
    if (newest != null && asOf != 0 && asOf != HybridTimestamp.LATEST) {
      SnapshotCheck.notInTheFuture(asOf, newest);
    }
    return asOf;
  }

  public String name() {
    return name;
  }

  /** Writes {@link Durability#HFLUSH}; see {@link #put(byte[], Map, Durability)}. */
  public long put(byte[] key, Map<String, byte[]> columns) {
    return put(key, columns, Durability.HFLUSH);
  }

  /**
   * Writes columns of a row, of any of its column groups, as one atomic version (blind write: the
   * other columns keep their values).
   *
   * @return the commit timestamp
   */
  public long put(byte[] key, Map<String, byte[]> columns, Durability durability) {
    Mutation m = Mutation.newBuilder().setKey(ByteString.copyFrom(key)).addAllColumns(Protos.columns(columns)).build();
    return rpc.write(name, key, "put to table '" + name + "'", m, durability);
  }

  /** The newest version of every column of the row; null if there is no such row. */
  public Row get(byte[] key) {
    return get(key, List.of(), HybridTimestamp.LATEST);
  }

  /**
   * The row as of a timestamp.
   *
   * @param columns the columns wanted; null or empty for all
   * @param asOf a hybrid timestamp; 0 or {@link HybridTimestamp#LATEST} for the newest versions
   * @return the row, or null if it did not exist at {@code asOf}
   */
  public Row get(byte[] key, Collection<String> columns, long asOf) {
    GetResponse r = rpc.call(name, key, "get from table '" + name + "'", (stub, ref) -> stub.get(GetRequest.newBuilder()
        .setTablet(ref)
        .setKey(ByteString.copyFrom(key))
        .addAllColumns(columns == null ? List.of() : columns)
        .setAsOf(Protos.asOf(checkedAsOf(asOf)))
        .build()));
    return r.getFound() ? RowProtos.fromProto(r.getRow()) : null;
  }

  /**
   * The history of a row: the newest {@code maxVersions} versions (1 to 1000) of each column group
   * holding a column asked for, as of a timestamp, newest first across groups. Deletes are versions
   * too.
   *
   * @param columns the columns wanted; null or empty for all
   * @param asOf a hybrid timestamp; 0 or {@link HybridTimestamp#LATEST} for the newest versions
   */
  public List<RowVersion> versions(byte[] key, Collection<String> columns, long asOf, int maxVersions) {
    GetResponse r = rpc.call(name, key, "get versions from table '" + name + "'", (stub, ref) -> stub.get(
        GetRequest.newBuilder()
            .setTablet(ref)
            .setKey(ByteString.copyFrom(key))
            .addAllColumns(columns == null ? List.of() : columns)
            .setAsOf(Protos.asOf(checkedAsOf(asOf)))
            .setVersions(maxVersions)
            .build()));
    List<RowVersion> versions = new ArrayList<>();
    for (GroupVersion v : r.getVersionsList()) {
      Map<String, byte[]> values = new TreeMap<>();
      v.getColumnsList().forEach(c -> values.put(c.getColumn(), c.getValue().toByteArray()));
      versions.add(new RowVersion(v.getColumnGroup(), v.getTimestamp(), v.getDeleted(), values));
    }
    versions.sort(Comparator.comparingLong(RowVersion::timestamp).reversed().thenComparing(RowVersion::columnGroup));
    return versions;
  }

  /** Deletes with {@link Durability#HFLUSH}; see {@link #delete(byte[], Durability)}. */
  public long delete(byte[] key) {
    return delete(key, Durability.HFLUSH);
  }

  /**
   * Deletes a row by writing a tombstone version: reads as of earlier timestamps still see it.
   *
   * @return the commit timestamp of the tombstone
   */
  public long delete(byte[] key, Durability durability) {
    Mutation m = Mutation.newBuilder().setKey(ByteString.copyFrom(key)).setDelete(true).build();
    return rpc.write(name, key, "delete from table '" + name + "'", m, durability);
  }

  /** Writes many rows with {@link Durability#HFLUSH}; see {@link #batchPut(List, Durability)}. */
  public long[] batchPut(List<Put> puts) {
    return batchPut(puts, Durability.HFLUSH);
  }

  /**
   * Writes many rows: one request per tablet, all tablets in parallel. Each row is atomic on its
   * own; the batch is not (on a failure some rows may be written).
   *
   * @return the commit timestamp of each put, in order
   */
  public long[] batchPut(List<Put> puts, Durability durability) {
    return new BatchWriter(rpc, name).write(puts, durability);
  }

  /** Starts a scan; close the scanner unless it is read to the end. */
  public Scanner scan(ScanSpec spec) {
    checkedAsOf(spec.asOf());
    return new Scanner(rpc, name, spec);
  }
}
