package org.logbase.tabletserver.server;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ExecutionException;
import org.logbase.common.Echo;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerStoppingException;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.common.schema.TableSchema;
import org.logbase.compaction.CompactionReport;
import org.logbase.files.ReadsInProgress;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.TabletLoad;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletSpec;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TabletId;
import org.logbase.tabletserver.StorageEngine;
import org.logbase.tabletserver.TabletRegistry;

/**
 * The tablets this server serves as requests name them (table name, tablet id), read from the
 * engine's {@link TabletRegistry}. Also the server's one switch between serving and stopping: once
 * stopped, every request is refused.
 */
final class ServedTablets implements AutoCloseable {
  private final StorageEngine engine;
  private final TabletOpener opener;
  private volatile String stopReason;

  /** @param assignments what an open is checked against just before it is carried out */
  ServedTablets(StorageEngine engine, TabletOpener.Assignments assignments) {
    this.engine = engine;
    this.opener = new TabletOpener(engine, assignments);
  }

  /**
   * The tablet a request names; refuses when stopping or when this server does not serve it. A
   * request that names a table id (0: not given) is refused by a tablet of another table of that
   * name: a dropped table's, still served here because its close failed, must not take the writes
   * of the table created again under its name (they would be lost with it).
   */
  Tablet find(TabletRef ref) {
    Tablet t = findAgain(ref);
    t.noteRequest();
    return t;
  }

  /** {@link #find} for a request counted already: the tablet as served now (a compaction may have replaced it). */
  Tablet findAgain(TabletRef ref) {
    checkServing();
    Tablet t = findServed(ref.getTable(), ref.getTableId(), ref.getTabletId());
    if (t == null) {
      throw notServing(ref.getTable(), ref.getTabletId());
    }
    return t;
  }

  private static NotServingTabletException notServing(String table, int tabletId) {
    return new NotServingTabletException(
        "this server does not serve tablet " + tabletId + " of table '" + Echo.of(table) + "'");
  }

  /** Compacts a served tablet now (see {@link StorageEngine#compact}). */
  CompactionReport compact(String table, int tabletId) throws IOException {
    checkServing();
    Tablet t = findServed(table, tabletId);
    if (t == null) {
      throw notServing(table, tabletId);
    }
    return engine.compact(t.descriptor().id());
  }

  /** The name of a served table by id, for messages ("#id" if none is served now). */
  String tableName(int tableId) {
    String name = engine.registry().snapshot().tableName(tableId);
    return name == null ? "#" + tableId : name;
  }

  /** The served tablet of {@code table} holding {@code key}, or null. */
  Tablet findByKey(String table, byte[] key) {
    Tablet t = engine.registry().snapshot().findByKey(table, key);
    if (t != null) {
      t.noteRequest();
    }
    return t;
  }

  /**
   * Opens tablets as the master asks (prepared transactions the replay finds are locked by the
   * transaction layer before they serve); completes when all serve, with those left out (see {@link
   * TabletOpener#open}).
   */
  CompletableFuture<List<TabletDescriptor>> open(List<OpenTabletRequest> requests) {
    checkServing();
    List<TabletOpener.Assigned> tablets = new ArrayList<>(requests.size());
    for (OpenTabletRequest r : requests) {
      if (!r.hasTable() || !r.hasTablet()) {
        throw new InvalidRequestException("opening a tablet needs a table spec and a tablet spec");
      }
      tablets.add(new TabletOpener.Assigned(descriptor(r.getTable(), r.getTablet()), r.getAssignment()));
    }
    return opener.open(tablets);
  }

  /** The tablet a master's request names. */
  static TabletDescriptor descriptor(TableSpec table, TabletSpec tablet) {
    TableSchema schema = SchemaProtos.fromProto(table);
    return new TabletDescriptor(schema, tablet.getTabletId(), bound(tablet.getStartKey()), bound(tablet.getEndKey()));
  }

  /** Whether the tablet was split already (its manifest says so). */
  boolean isSplit(TabletDescriptor d) throws IOException {
    return engine.isSplit(d);
  }

  /** The key a split would use (see {@link StorageEngine#splitKey}); refuses a bad one before anything stops. */
  byte[] splitKey(TabletDescriptor d, byte[] key) {
    checkServing();
    return engine.splitKey(d, key);
  }

  /** Splits a tablet this server serves (its writes stopped), or answers the key of a split done. */
  byte[] split(TabletDescriptor d, byte[] key, int leftId, int rightId) throws IOException {
    checkServing();
    return engine.splitTablet(d, key, leftId, rightId);
  }

  /**
   * Begins a close of the tablet's {@code assignment}: from now on an open of that assignment or an
   * older one is refused here, and this waits (at most {@code maxMs}) until the opens of the tablet
   * admitted before are done, so that the close sees the tablet they open.
   */
  void beginClose(String table, int tableId, int tabletId, long assignment, long maxMs) throws InterruptedException {
    try {
      opener.closing(table, tableId, tabletId, assignment).get(maxMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("closing() never fails", e);
    } catch (TimeoutException e) {
      throw new ServerStoppingException("tablet " + tabletId + " of '" + Echo.of(table) + "' is still being opened"
          + " after " + maxMs + " ms; close it again later");
    }
  }

  /** Records that table {@code tableId} was dropped: every open of its tablets is refused from now on. */
  void fenceDropped(int tableId) {
    opener.fenceDropped(tableId);
  }

  /**
   * Records that table {@code tableId} was dropped: every open of its tablets is refused from now on,
   * and this waits (at most {@code maxMs}) until the opens of its tablets admitted before are done,
   * so that {@link #servedOf} then lists every tablet of it this server will serve.
   *
   * @return false if opens of its tablets were still under way after {@code maxMs}
   */
  boolean beginDrop(int tableId, long maxMs) throws InterruptedException {
    try {
      opener.tableDropped(tableId).get(maxMs, TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      throw new AssertionError("tableDropped() never fails", e);
    } catch (TimeoutException e) {
      return false;
    }
  }

  /** Whether this server serves the tablet now. */
  boolean serves(TabletId id) {
    return engine.registry().snapshot().get(id) != null;
  }

  /** The served tablet with these names, or null. */
  Tablet findServed(String table, int tabletId) {
    return engine.registry().snapshot().find(table, tabletId);
  }

  /**
   * The served tablet a close names: by name, and by table id unless that is 0 (not given). A
   * tablet of an earlier table of that name (dropped, its close failed) is not the one asked for.
   */
  Tablet findServed(String table, int tableId, int tabletId) {
    Tablet t = findServed(table, tabletId);
    return t == null || tableId == 0 || t.descriptor().id().tableId() == tableId ? t : null;
  }

  /** Checkpoints a served tablet that is about to close (see {@link StorageEngine#checkpointBeforeClose}). */
  void checkpointBeforeClose(Tablet t) throws IOException {
    engine.checkpointBeforeClose(t.descriptor().id());
  }

  /** Stops serving a tablet whose writes were drained, without a checkpoint of its own. */
  void closeDrained(Tablet t) throws IOException {
    engine.closeTablet(t.descriptor().id(), false);
  }

  void close(String table, int tabletId) throws IOException {
    Tablet t = engine.registry().snapshot().find(table, tabletId);
    if (t != null) {
      engine.closeTablet(t.descriptor().id());
    }
  }

  /**
   * Begins a long read at {@code snapshot}: until it ends, compactions keep what it reads and the
   * files it reads stay. Begin it before the read opens the tablet's cursors.
   */
  ReadsInProgress.Read beginRead(long snapshot) {
    return engine.reads().begin(snapshot);
  }

  /** The tablets served now. */
  List<Tablet> all() {
    return engine.tablets();
  }

  /** The tablets served now, each with its table's id and the fingerprint of the schema it is served with. */
  List<TabletRef> serving() {
    List<TabletRef> out = new ArrayList<>();
    for (TabletRegistry.Entry e : engine.registry().snapshot().entries()) {
      TableSchema schema = e.tablet().descriptor().schema();
      out.add(TabletRef.newBuilder().setTable(schema.name()).setTabletId(e.id().tabletId())
          .setTableId(e.id().tableId()).setSchemaFingerprint(schema.fingerprint()).build());
    }
    return out;
  }

  /** The tablets of table {@code tableId} served now. */
  List<Tablet> servedOf(int tableId) {
    List<Tablet> out = new ArrayList<>();
    for (TabletRegistry.Entry e : engine.registry().snapshot().entries()) {
      if (e.id().tableId() == tableId) {
        out.add(e.tablet());
      }
    }
    return out;
  }

  /** Each served tablet's size and request count, for the heartbeat. */
  List<TabletLoad> loads() {
    List<TabletLoad> out = new ArrayList<>();
    for (TabletRegistry.Entry e : engine.registry().snapshot().entries()) {
      Tablet t = e.tablet();
      out.add(TabletLoad.newBuilder().setTablet(TabletRef.newBuilder().setTable(t.descriptor().schema().name())
          .setTabletId(e.id().tabletId())).setVersions(t.versions()).setRequests(t.requests()).build());
    }
    return out;
  }

  int count() {
    return engine.registry().snapshot().size();
  }

  /** From now on every request fails with {@link ServerStoppingException}. */
  void stop(String reason) {
    stopReason = reason;
  }

  boolean isServing() {
    return stopReason == null;
  }

  /** Throws {@link ServerStoppingException} once the server is stopping. */
  void checkServing() {
    String r = stopReason;
    if (r != null) {
      throw new ServerStoppingException("tablet server is stopping: " + r);
    }
  }

  private static byte[] bound(ByteString b) {
    return b.isEmpty() ? null : b.toByteArray();
  }

  /** Stops opening tablets (the one being opened finishes). */
  @Override
  public void close() throws InterruptedException {
    opener.close();
  }
}
