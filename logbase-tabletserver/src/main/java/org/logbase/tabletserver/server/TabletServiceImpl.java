package org.logbase.tabletserver.server;

import io.grpc.Context;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.common.Echo;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.TimestampRequests;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.files.ReadsInProgress;
import org.logbase.log.Durability;
import org.logbase.rpc.BatchMutateRequest;
import org.logbase.rpc.BatchMutateResponse;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.CommitRequest;
import org.logbase.rpc.CommitResponse;
import org.logbase.rpc.DecideRequest;
import org.logbase.rpc.DecideResponse;
import org.logbase.rpc.DeleteRequest;
import org.logbase.rpc.DeleteResponse;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.ListLocksRequest;
import org.logbase.rpc.ListLocksResponse;
import org.logbase.rpc.LockInfo;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.PrepareRequest;
import org.logbase.rpc.PrepareResponse;
import org.logbase.rpc.PutRequest;
import org.logbase.rpc.PutResponse;
import org.logbase.rpc.ResolveRequest;
import org.logbase.rpc.ResolveResponse;
import org.logbase.rpc.ScanBatch;
import org.logbase.rpc.ScanRequest;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.rpc.TxnWrite;
import org.logbase.tablet.Tablet;
import org.logbase.txn.LockManager;
import org.logbase.txn.RowWrite;
import org.logbase.txn.TxnManager;
import org.logbase.txn.WriteBatch;

/** Client requests: each names a tablet; the answer comes from the storage engine. */
final class TabletServiceImpl extends TabletServiceGrpc.TabletServiceImplBase {
  private static final int DEFAULT_BATCH_ROWS = 500;
  private static final int MAX_BATCH_ROWS = 10_000;

  private final ServedTablets tablets;
  private final TxnManager txns;
  private final LongAdder requests = new LongAdder();
  private final WritePathStats stats;
  private final OpenScans scans;
  private final long scanBatchBytes;
  private final Calls calls;

  /** @param scanBatchBytes about the most bytes of rows one scan batch carries (a message's share) */
  TabletServiceImpl(ServedTablets tablets, TxnManager txns, WritePathStats stats, Calls calls, OpenScans scans,
      long scanBatchBytes) {
    this.scanBatchBytes = scanBatchBytes;
    this.calls = calls;
    this.scans = scans;
    this.tablets = tablets;
    this.txns = txns;
    this.stats = stats;
  }

  long requests() {
    return requests.sum();
  }

  @Override
  public void get(GetRequest req, StreamObserver<GetResponse> out) {
    requests.increment();
    calls.unary(out, () -> {
      Tablet t = tablets.find(req.getTablet());
      if (req.getAsOf() != 0) {
        txns.awaitReadable(t.descriptor().schema().id(), req.getKey().toByteArray(), req.getAsOf());
        // Read the tablet as served now, not as found before the wait: a compaction may have
        // switched it to new indexes meanwhile, and a writer this read waited for (or one that
        // finished just before the check) installed its version in those only. Read from the old
        // tablet, a snapshot missed a version committed below it, and a transaction that read the
        // row there committed over that version unchecked (a lost update; GetAfterSwitchTest).
        t = tablets.findAgain(req.getTablet());
      }
      if (req.getVersions() != 0) {
        return RowVersions.read(t, req.getKey().toByteArray(), columns(req.getColumnsList()), asOf(req.getAsOf()),
            req.getVersions());
      }
      Row row = t.get(req.getKey().toByteArray(), columns(req.getColumnsList()), asOf(req.getAsOf()));
      return row == null ? GetResponse.newBuilder().setFound(false).build()
          : GetResponse.newBuilder().setFound(true).setRow(RowProtos.toProto(row)).build();
    });
  }

  @Override
  public void put(PutRequest req, StreamObserver<PutResponse> out) {
    requests.increment();
    calls.async(out, () -> stats.time(1, () -> {
      WriteBatch b = new WriteBatch().put(tablets.find(req.getTablet()), req.getKey().toByteArray(),
          values(req.getColumnsList()));
      return txns.write(b, durability(req.getDurabilityValue()))
          .thenApply(ts -> PutResponse.newBuilder().setTimestamp(ts[0]).build());
    }));
  }

  @Override
  public void delete(DeleteRequest req, StreamObserver<DeleteResponse> out) {
    requests.increment();
    calls.async(out, () -> stats.time(1, () -> {
      WriteBatch b = new WriteBatch().delete(tablets.find(req.getTablet()), req.getKey().toByteArray());
      return txns.write(b, durability(req.getDurabilityValue()))
          .thenApply(ts -> DeleteResponse.newBuilder().setTimestamp(ts[0]).build());
    }));
  }

  @Override
  public void batchMutate(BatchMutateRequest req, StreamObserver<BatchMutateResponse> out) {
    requests.increment();
    calls.async(out, () -> stats.time(req.getMutationsCount(), () -> {
      if (req.getMutationsCount() > TimestampRequests.MAX_COUNT) {
        // Each row takes a timestamp of one oracle request, which hands out at most that many.
        throw new InvalidRequestException("a batch writes at most " + TimestampRequests.MAX_COUNT + " rows, not "
            + req.getMutationsCount() + ": send it in several");
      }
      Tablet t = tablets.find(req.getTablet());
      WriteBatch writes = new WriteBatch();
      for (Mutation m : req.getMutationsList()) {
        writes.add(write(t, m));
      }
      // One oracle request and one log batch for all of them; each row is its own atomic version.
      return txns.write(writes, durability(req.getDurabilityValue()), req.getRefuseIfPrepared()).thenApply(ts -> {
        BatchMutateResponse.Builder b = BatchMutateResponse.newBuilder();
        for (long x : ts) {
          b.addTimestamps(x);
        }
        return b.build();
      });
    }));
  }

  @Override
  public void commit(CommitRequest req, StreamObserver<CommitResponse> out) {
    requests.increment();
    calls.async(out, () -> txns.commit(req.getStartTs(), writes(req.getWritesList()), durability(req.getDurabilityValue()))
        .thenApply(ts -> CommitResponse.newBuilder().setCommitTs(ts).build()));
  }

  @Override
  public void prepare(PrepareRequest req, StreamObserver<PrepareResponse> out) {
    requests.increment();
    calls.async(out, () -> txns.prepare(req.getStartTs(), writes(req.getWritesList()), req.getPrimaryTable(),
            req.getPrimaryKey().toByteArray(), durability(req.getDurabilityValue()))
        .thenApply(v -> PrepareResponse.getDefaultInstance()));
  }

  @Override
  public void decide(DecideRequest req, StreamObserver<DecideResponse> out) {
    requests.increment();
    calls.async(out, () -> txns.decide(req.getStartTs(), req.getCommit(), req.getCommitTs(), req.getPrimaryTable(),
            req.getPrimaryKey().toByteArray(), req.getIsPrimary(), durability(req.getDurabilityValue()))
        .thenApply(v -> DecideResponse.getDefaultInstance()));
  }

  @Override
  public void resolve(ResolveRequest req, StreamObserver<ResolveResponse> out) {
    requests.increment();
    calls.unary(out, () -> {
      TxnManager.Outcome o = txns.resolve(req.getStartTs(), req.getPrimaryTable(), req.getPrimaryKey().toByteArray());
      return ResolveResponse.newBuilder().setCommitted(o.committed()).setCommitTs(o.commitTs()).build();
    });
  }

  @Override
  public void listLocks(ListLocksRequest req, StreamObserver<ListLocksResponse> out) {
    calls.unary(out, () -> {
      ListLocksResponse.Builder b = ListLocksResponse.newBuilder();
      for (LockManager.Held h : txns.locks()) {
        b.addLocks(LockInfo.newBuilder().setTable(tablets.tableName(h.row().tableId()))
            .setKey(com.google.protobuf.ByteString.copyFrom(h.row().key())).setTxn(h.holder().txnId())
            .setPrepared(h.holder().prepared()).setHeldMs(h.holder().heldMillis()));
      }
      return b.build();
    });
  }

  private List<RowWrite> writes(List<TxnWrite> ws) {
    if (ws.isEmpty()) {
      throw new InvalidRequestException("a transaction commit needs at least one write");
    }
    List<RowWrite> out = new ArrayList<>(ws.size());
    for (TxnWrite w : ws) {
      out.add(write(tablets.find(w.getTablet()), w.getMutation()));
    }
    return out;
  }

  private static RowWrite write(Tablet t, Mutation m) {
    byte[] key = m.getKey().toByteArray();
    return m.getDelete() ? RowWrite.delete(t, key) : RowWrite.put(t, key, values(m.getColumnsList()));
  }

  @Override
  public void scan(ScanRequest req, StreamObserver<ScanBatch> out) {
    requests.increment();
    ServerCallStreamObserver<ScanBatch> call = (ServerCallStreamObserver<ScanBatch>) out;
    ScanPump pump;
    OpenScans.Slot slot = null;
    try {
      Tablet t = tablets.find(req.getTablet()); // a wrong route is told so, not that this server is busy
      slot = scans.admit();
      int batchRows = req.getBatchRows() <= 0 ? DEFAULT_BATCH_ROWS : Math.min(req.getBatchRows(), MAX_BATCH_ROWS);
      if (req.getLimit() < 0) {
        throw new InvalidRequestException("scan limit must not be negative: " + req.getLimit());
      }
      // Every page reads the same snapshot, so a scan is consistent across its batches.
      long asOf = req.getAsOf() == 0 ? t.snapshotTimestamp() : req.getAsOf();
      byte[] from = req.getStartKey().isEmpty() ? t.descriptor().startKey() : req.getStartKey().toByteArray();
      byte[] to = req.getEndKey().isEmpty() ? t.descriptor().endKey() : req.getEndKey().toByteArray();
      txns.awaitRangeReadable(t.descriptor().schema().id(), from, to, asOf);
      RowFilter filter = req.hasFilter() ? RowFilter.of(t.descriptor().schema(), req.getFilter()) : RowFilter.ALL;
      byte[] start = req.getStartKey().isEmpty() ? null : req.getStartKey().toByteArray();
      byte[] end = req.getEndKey().isEmpty() ? null : req.getEndKey().toByteArray();
      if (req.getReverse() && (req.getLimit() < 1 || req.getLimit() > ReverseBatches.MAX_LIMIT)) {
        throw new InvalidRequestException("a reverse scan needs a limit of 1 to " + ReverseBatches.MAX_LIMIT
            + " rows (it keeps them in memory), not " + req.getLimit());
      }
      ReadsInProgress.Read read = tablets.beginRead(asOf);
      // Set when the server ends the scan; a reverse scan reads its range in one batch and checks it.
      AtomicBoolean expired = new AtomicBoolean();
      Context context = Context.current();
      try {
        // The tablet as it is once the read has begun: the files it names stay until the read ends,
        // and the versions of the writers the lock wait above waited for are in its indexes (a
        // compaction may have switched the tablet meanwhile; see get).
        Tablet now = tablets.findAgain(req.getTablet());
        RowBatches rows;
        if (req.getReverse()) {
          rows = new ReverseBatches(new ForwardBatches(now, start, end, columns(req.getColumnsList()), filter, asOf,
              Long.MAX_VALUE, batchRows, scanBatchBytes), req.getLimit(), batchRows, scanBatchBytes,
              () -> expired.get() || context.isCancelled());
        } else {
          rows = new ForwardBatches(now, start, end, columns(req.getColumnsList()), filter, asOf,
              req.getLimit() == 0 ? Long.MAX_VALUE : req.getLimit(), batchRows, scanBatchBytes);
        }
        pump = new ScanPump(call, rows, calls, read, slot, now.descriptor().id(), scans, expired);
      } catch (RuntimeException | Error e) {
        read.close();
        throw e;
      }
    } catch (RuntimeException | Error e) {
      if (slot != null) {
        slot.close();
      }
      if (e instanceof Error error) {
        throw error;
      }
      calls.fail(out, (RuntimeException) e);
      return;
    }
    pump.start();
  }

  private static Map<String, byte[]> values(List<ColumnValue> cols) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (ColumnValue c : cols) {
      if (m.put(c.getColumn(), c.getValue().toByteArray()) != null) {
        throw new InvalidRequestException("column '" + Echo.of(c.getColumn()) + "' appears twice in one write");
      }
    }
    return m;
  }

  private static List<String> columns(List<String> cols) {
    return cols.isEmpty() ? null : cols;
  }

  private static long asOf(long ts) {
    return ts == 0 ? HybridTimestamp.LATEST : ts;
  }

  private static Durability durability(int value) {
    return switch (value) {
      case 0 -> Durability.HFLUSH;
      case 1 -> Durability.HSYNC;
      default -> throw new InvalidRequestException("unknown durability " + value);
    };
  }
}
