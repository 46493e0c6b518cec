package org.logbase.client.fake;

import com.google.protobuf.ByteString;
import io.grpc.Server;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.logbase.common.Bytes;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.KeyOutOfRangeException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.Row;
import org.logbase.common.TimestampRequests;
import org.logbase.common.TransactionConflictException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.common.schema.TableSchema;
import org.logbase.rpc.BatchMutateRequest;
import org.logbase.rpc.BatchMutateResponse;
import org.logbase.rpc.Cell;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.CommitRequest;
import org.logbase.rpc.CommitResponse;
import org.logbase.rpc.DecideRequest;
import org.logbase.rpc.DecideResponse;
import org.logbase.rpc.DeleteRequest;
import org.logbase.rpc.DeleteResponse;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.PrepareRequest;
import org.logbase.rpc.PrepareResponse;
import org.logbase.rpc.PutRequest;
import org.logbase.rpc.PutResponse;
import org.logbase.rpc.RowResult;
import org.logbase.rpc.ScanBatch;
import org.logbase.rpc.ScanRequest;
import org.logbase.rpc.TabletRef;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.rpc.TabletSpec;

/**
 * A tablet server that serves the tablets {@link FakeMetadata} assigns to it and answers
 * NOT_SERVING_TABLET for the others. Scans can be told to stay open or to fail part-way.
 * Transactions commit when all their rows are on one server (Commit; first committer wins); of
 * two-phase commit only the messages are faked: a prepare is answered (or held, unanswered; or
 * refused for a tablet not served here) and writes nothing, a decide is recorded and answered.
 */
public final class FakeTabletServer extends TabletServiceGrpc.TabletServiceImplBase {
  private final String id;
  private final FakeMetadata meta;
  private final Server server;
  private final Set<Integer> tabletsServed = ConcurrentHashMap.newKeySet();
  private final Set<Integer> tableIdsNamed = ConcurrentHashMap.newKeySet();
  private final AtomicInteger scansStarted = new AtomicInteger();
  private final AtomicInteger failNextScanAfterRows = new AtomicInteger(-1);
  private final Object scanMonitor = new Object();
  private int openScans; // guarded by scanMonitor
  private volatile boolean holdScansOpen;
  private volatile boolean holdPrepares;
  /** The decides received, as "abort START_TS" or "commit START_TS". */
  private final List<String> decides = new CopyOnWriteArrayList<>();

  FakeTabletServer(String id, FakeMetadata meta) {
    this.id = id;
    this.meta = meta;
    this.server = FakeRpc.serve(this);
    meta.addServer(id, FakeRpc.address(server));
  }

  public String id() {
    return id;
  }

  /** Ids of the tablets this server answered a request for. */
  /** The table ids data requests named (0: none). */
  public Set<Integer> tableIdsNamed() {
    return Set.copyOf(tableIdsNamed);
  }

  public Set<Integer> tabletsServed() {
    return Set.copyOf(tabletsServed);
  }

  public int scansStarted() {
    return scansStarted.get();
  }

  /** Scans send their rows but do not complete until the client cancels them. */
  public void holdScansOpen(boolean hold) {
    holdScansOpen = hold;
  }

  /** Prepares are not answered (the server seems paused to the client) until this is switched off. */
  public void holdPrepares(boolean hold) {
    holdPrepares = hold;
  }

  /** The decides this server received so far: "abort START_TS" or "commit START_TS". */
  public List<String> decides() {
    return List.copyOf(decides);
  }

  /** The next scan sends {@code rows} rows, then fails with NOT_SERVING_TABLET. */
  public void failNextScanAfterRows(int rows) {
    failNextScanAfterRows.set(rows);
  }

  /** Waits until every scan stream started here has ended; false on timeout. */
  public boolean awaitNoOpenScans(long timeout, TimeUnit unit) throws InterruptedException {
    long end = System.nanoTime() + unit.toNanos(timeout);
    synchronized (scanMonitor) {
      while (openScans > 0) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(scanMonitor, left);
      }
      return true;
    }
  }

  void stop() {
    FakeRpc.stop(server);
  }

  @Override
  public void get(GetRequest request, StreamObserver<GetResponse> observer) {
    FakeRpc.respond(observer, () -> {
      Served s = serve(request.getTablet(), request.getKey());
      s.schema.checkColumns(request.getColumnsList());
      Row row = meta.store(s.table).get(request.getKey().toByteArray(), new HashSet<>(request.getColumnsList()),
          asOf(request.getAsOf()));
      return row == null ? GetResponse.newBuilder().setFound(false).build()
          : GetResponse.newBuilder().setFound(true).setRow(toProto(row)).build();
    });
  }

  @Override
  public void put(PutRequest request, StreamObserver<PutResponse> observer) {
    FakeRpc.respond(observer, () -> {
      Served s = serve(request.getTablet(), request.getKey());
      return PutResponse.newBuilder().setTimestamp(write(s, request.getKey(), request.getColumnsList(), false)).build();
    });
  }

  @Override
  public void delete(DeleteRequest request, StreamObserver<DeleteResponse> observer) {
    FakeRpc.respond(observer, () -> {
      Served s = serve(request.getTablet(), request.getKey());
      return DeleteResponse.newBuilder().setTimestamp(write(s, request.getKey(), List.of(), true)).build();
    });
  }

  @Override
  public void batchMutate(BatchMutateRequest request, StreamObserver<BatchMutateResponse> observer) {
    FakeRpc.respond(observer, () -> {
      if (request.getMutationsCount() > TimestampRequests.MAX_COUNT) { // as the real server refuses
        throw new InvalidRequestException("a batch writes at most " + TimestampRequests.MAX_COUNT + " rows");
      }
      BatchMutateResponse.Builder b = BatchMutateResponse.newBuilder();
      for (Mutation m : request.getMutationsList()) {
        Served s = serve(request.getTablet(), m.getKey());
        b.addTimestamps(write(s, m.getKey(), m.getColumnsList(), m.getDelete()));
      }
      return b.build();
    });
  }

  @Override
  public void commit(CommitRequest request, StreamObserver<CommitResponse> observer) {
    FakeRpc.respond(observer, () -> {
      synchronized (this) { // validate and write as one step, as the real server does under its row locks
        List<Served> served = request.getWritesList().stream()
            .map(w -> serve(w.getTablet(), w.getMutation().getKey())).toList();
        for (int i = 0; i < served.size(); i++) {
          Mutation m = request.getWrites(i).getMutation();
          served.get(i).schema.checkColumns(m.getColumnsList().stream().map(ColumnValue::getColumn).toList());
          byte[] key = m.getKey().toByteArray();
          long newest = meta.store(served.get(i).table).newestTimestamp(key);
          if (newest > request.getStartTs()) {
            throw new TransactionConflictException("transaction " + request.getStartTs() + " conflicts: row "
                + Bytes.toStringBinary(key) + " of table '" + served.get(i).table + "' was written at " + newest
                + ", after the transaction began");
          }
        }
        long ts = meta.nextTimestamp();
        for (int i = 0; i < served.size(); i++) {
          Mutation m = request.getWrites(i).getMutation();
          write(served.get(i), m.getKey(), m.getColumnsList(), m.getDelete(), ts);
        }
        return CommitResponse.newBuilder().setCommitTs(ts).build();
      }
    });
  }

  @Override
  public void prepare(PrepareRequest request, StreamObserver<PrepareResponse> observer) {
    if (holdPrepares) {
      return; // never answered: the client's deadline ends the call
    }
    FakeRpc.respond(observer, () -> {
      request.getWritesList().forEach(w -> serve(w.getTablet(), w.getMutation().getKey())); // a wrong route is refused
      return PrepareResponse.getDefaultInstance();
    });
  }

  @Override
  public void decide(DecideRequest request, StreamObserver<DecideResponse> observer) {
    decides.add((request.getCommit() ? "commit " : "abort ") + request.getStartTs());
    FakeRpc.respond(observer, DecideResponse::getDefaultInstance);
  }

  @Override
  public void scan(ScanRequest request, StreamObserver<ScanBatch> observer) {
    ServerCallStreamObserver<ScanBatch> call = (ServerCallStreamObserver<ScanBatch>) observer;
    scansStarted.incrementAndGet();
    synchronized (scanMonitor) {
      openScans++;
    }
    AtomicBoolean ended = new AtomicBoolean();
    call.setOnCancelHandler(() -> scanEnded(ended));
    List<Row> rows;
    try {
      Served s = serve(request.getTablet(), null);
      s.schema.checkColumns(request.getColumnsList());
      rows = meta.store(s.table).scan(clip(request.getStartKey(), s.tablet.getStartKey(), true),
          clip(request.getEndKey(), s.tablet.getEndKey(), false), new HashSet<>(request.getColumnsList()),
          asOf(request.getAsOf()), request.getLimit());
    } catch (RuntimeException e) {
      endScan(call, ended, e);
      return;
    }
    int failAfter = failNextScanAfterRows.getAndSet(-1);
    int batchRows = request.getBatchRows() > 0 ? request.getBatchRows() : 2;
    for (int i = 0; i < rows.size(); i += batchRows) {
      if (failAfter >= 0 && i >= failAfter) {
        endScan(call, ended, new NotServingTabletException("tablet moved during the scan"));
        return;
      }
      ScanBatch.Builder batch = ScanBatch.newBuilder();
      rows.subList(i, Math.min(rows.size(), i + batchRows)).forEach(r -> batch.addRows(toProto(r)));
      call.onNext(batch.build());
    }
    if (!holdScansOpen) {
      endScan(call, ended, null);
    }
  }

  private void endScan(ServerCallStreamObserver<ScanBatch> call, AtomicBoolean ended, RuntimeException failure) {
    if (failure == null) {
      call.onCompleted();
    } else {
      call.onError(RpcErrors.toStatus(failure));
    }
    scanEnded(ended);
  }

  /** Counts a scan as ended once, whether it completed or was cancelled (or both raced). */
  private void scanEnded(AtomicBoolean ended) {
    if (ended.getAndSet(true)) {
      return;
    }
    synchronized (scanMonitor) {
      openScans--;
      scanMonitor.notifyAll();
    }
  }

  /** The table, schema and tablet a request addresses, after checking this server serves the key. */
  private record Served(String table, Schema schema, TabletSpec tablet) {}

  /** Column checks the way the real server makes them. */
  private record Schema(TableSchema schema) {
    void checkColumns(List<String> columns) {
      columns.forEach(schema::groupOf);
    }
  }

  private Served serve(TabletRef ref, ByteString key) {
    TableSchema schema = meta.schema(ref.getTable()); // TABLE_NOT_FOUND first
    var location = meta.tablet(ref.getTable(), ref.getTabletId());
    tableIdsNamed.add(ref.getTableId());
    // As the real server: a request naming another table id than the table's (looked up before the
    // table was dropped and created again under its name) is not served.
    if (location == null || !location.getServerId().equals(id)
        || ref.getTableId() != 0 && ref.getTableId() != schema.id()) {
      throw new NotServingTabletException("server " + id + " does not serve tablet " + ref.getTabletId()
          + " of table '" + ref.getTable() + "'");
    }
    TabletSpec tablet = location.getTablet();
    if (key != null && !Bytes.inRange(key.toByteArray(), bound(tablet.getStartKey()), bound(tablet.getEndKey()))) {
      throw new KeyOutOfRangeException("key " + Bytes.toStringBinary(key.toByteArray()) + " is outside tablet "
          + ref.getTabletId());
    }
    tabletsServed.add(ref.getTabletId());
    return new Served(ref.getTable(), new Schema(schema), tablet);
  }

  private long write(Served s, ByteString key, List<ColumnValue> columns, boolean delete) {
    return write(s, key, columns, delete, meta.nextTimestamp());
  }

  private long write(Served s, ByteString key, List<ColumnValue> columns, boolean delete, long ts) {
    Map<String, byte[]> values = new LinkedHashMap<>();
    for (ColumnValue c : columns) {
      s.schema.schema().groupOf(c.getColumn());
      values.put(c.getColumn(), c.getValue().toByteArray());
    }
    if (delete) {
      meta.store(s.table).delete(key.toByteArray(), ts);
    } else {
      meta.store(s.table).put(key.toByteArray(), values, ts);
    }
    return ts;
  }

  private static byte[] bound(ByteString b) {
    return b.isEmpty() ? null : b.toByteArray();
  }

  /** The tighter of a requested bound and the tablet's bound; empty = unbounded. */
  private static byte[] clip(ByteString requested, ByteString tablet, boolean isStart) {
    if (requested.isEmpty()) {
      return tablet.toByteArray();
    }
    if (tablet.isEmpty()) {
      return requested.toByteArray();
    }
    int c = Bytes.compare(requested.toByteArray(), tablet.toByteArray());
    return (isStart ? c >= 0 : c <= 0) ? requested.toByteArray() : tablet.toByteArray();
  }

  private static long asOf(long requested) {
    return requested == 0 ? HybridTimestamp.LATEST : requested;
  }

  private static RowResult toProto(Row row) {
    RowResult.Builder b = RowResult.newBuilder().setKey(ByteString.copyFrom(row.key()));
    row.cells().forEach((c, cell) -> b.addCells(
        Cell.newBuilder().setColumn(c).setValue(ByteString.copyFrom(cell.value())).setTimestamp(cell.timestamp())));
    return b.build();
  }

}
