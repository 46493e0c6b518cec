package org.logbase.tabletserver.server;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.log.Durability;
import org.logbase.rpc.BatchMutateRequest;
import org.logbase.rpc.BatchMutateResponse;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.DeleteRequest;
import org.logbase.rpc.DeleteResponse;
import org.logbase.rpc.GetRequest;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.PutRequest;
import org.logbase.rpc.PutResponse;
import org.logbase.rpc.ScanBatch;
import org.logbase.rpc.ScanRequest;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.tablet.Tablet;

/** Client requests: each names a tablet; the answer comes from the storage engine. */
final class TabletServiceImpl extends TabletServiceGrpc.TabletServiceImplBase {
  private static final int DEFAULT_BATCH_ROWS = 500;
  private static final int MAX_BATCH_ROWS = 10_000;

  private final ServedTablets tablets;
  private final LongAdder requests = new LongAdder();

  TabletServiceImpl(ServedTablets tablets) {
    this.tablets = tablets;
  }

  long requests() {
    return requests.sum();
  }

  @Override
  public void get(GetRequest req, StreamObserver<GetResponse> out) {
    requests.increment();
    Calls.unary(out, () -> {
      Tablet t = tablets.find(req.getTablet());
      Row row = t.get(req.getKey().toByteArray(), columns(req.getColumnsList()), asOf(req.getAsOf()));
      return row == null ? GetResponse.newBuilder().setFound(false).build()
          : GetResponse.newBuilder().setFound(true).setRow(RowProtos.toProto(row)).build();
    });
  }

  @Override
  public void put(PutRequest req, StreamObserver<PutResponse> out) {
    requests.increment();
    Calls.async(out, () -> tablets.find(req.getTablet())
        .putAsync(req.getKey().toByteArray(), values(req.getColumnsList()), durability(req.getDurabilityValue()))
        .thenApply(ts -> PutResponse.newBuilder().setTimestamp(ts).build()));
  }

  @Override
  public void delete(DeleteRequest req, StreamObserver<DeleteResponse> out) {
    requests.increment();
    Calls.async(out, () -> tablets.find(req.getTablet())
        .deleteAsync(req.getKey().toByteArray(), durability(req.getDurabilityValue()))
        .thenApply(ts -> DeleteResponse.newBuilder().setTimestamp(ts).build()));
  }

  @Override
  public void batchMutate(BatchMutateRequest req, StreamObserver<BatchMutateResponse> out) {
    requests.increment();
    Calls.async(out, () -> {
      Tablet t = tablets.find(req.getTablet());
      Durability d = durability(req.getDurabilityValue());
      // All mutations enter the log queue before any completes, so they share group commits.
      List<CompletableFuture<Long>> fs = new ArrayList<>(req.getMutationsCount());
      for (Mutation m : req.getMutationsList()) {
        byte[] key = m.getKey().toByteArray();
        fs.add(m.getDelete() ? t.deleteAsync(key, d) : t.putAsync(key, values(m.getColumnsList()), d));
      }
      return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).thenApply(v -> {
        BatchMutateResponse.Builder b = BatchMutateResponse.newBuilder();
        fs.forEach(f -> b.addTimestamps(f.join()));
        return b.build();
      });
    });
  }

  @Override
  public void scan(ScanRequest req, StreamObserver<ScanBatch> out) {
    requests.increment();
    ServerCallStreamObserver<ScanBatch> call = (ServerCallStreamObserver<ScanBatch>) out;
    ScanPump pump;
    try {
      Tablet t = tablets.find(req.getTablet());
      int batchRows = req.getBatchRows() <= 0 ? DEFAULT_BATCH_ROWS : Math.min(req.getBatchRows(), MAX_BATCH_ROWS);
      if (req.getLimit() < 0) {
        throw new InvalidRequestException("scan limit must not be negative: " + req.getLimit());
      }
      // Every page reads the same snapshot, so a scan is consistent across its batches.
      long asOf = req.getAsOf() == 0 ? t.snapshotTimestamp() : req.getAsOf();
      pump = new ScanPump(t, call, req.getStartKey().isEmpty() ? null : req.getStartKey().toByteArray(),
          req.getEndKey().isEmpty() ? null : req.getEndKey().toByteArray(), columns(req.getColumnsList()), asOf,
          req.getLimit() == 0 ? Long.MAX_VALUE : req.getLimit(), batchRows);
    } catch (RuntimeException e) {
      Calls.fail(out, e);
      return;
    }
    // Flow control: produce a batch only when the client can take it.
    call.setOnReadyHandler(pump::run);
    pump.run();
  }

  /** Streams a tablet's rows batch by batch while the call is ready; gRPC serialises its runs. */
  private static final class ScanPump implements Runnable {
    private final Tablet tablet;
    private final ServerCallStreamObserver<ScanBatch> call;
    private final byte[] end;
    private final List<String> columns;
    private final long asOf;
    private final int batchRows;
    private byte[] start;
    private long left;
    private boolean done;

    ScanPump(Tablet tablet, ServerCallStreamObserver<ScanBatch> call, byte[] start, byte[] end, List<String> columns,
        long asOf, long limit, int batchRows) {
      this.tablet = tablet;
      this.call = call;
      this.start = start;
      this.end = end;
      this.columns = columns;
      this.asOf = asOf;
      this.left = limit;
      this.batchRows = batchRows;
    }

    @Override
    public void run() {
      try {
        while (!done && call.isReady() && !call.isCancelled()) {
          int want = (int) Math.min(batchRows, left);
          List<Row> rows = tablet.scan(start, end, columns, asOf, want);
          if (!rows.isEmpty()) {
            ScanBatch.Builder b = ScanBatch.newBuilder();
            rows.forEach(r -> b.addRows(RowProtos.toProto(r)));
            call.onNext(b.build());
            left -= rows.size();
            start = successor(rows.get(rows.size() - 1).key());
          }
          if (rows.size() < want || left == 0) {
            done = true;
            call.onCompleted();
          }
        }
      } catch (Exception e) {
        done = true;
        if (!call.isCancelled()) {
          Calls.fail(call, e);
        }
      }
    }
  }

  /** The smallest key after {@code key}. */
  private static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  private static Map<String, byte[]> values(List<ColumnValue> cols) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (ColumnValue c : cols) {
      if (m.put(c.getColumn(), c.getValue().toByteArray()) != null) {
        throw new InvalidRequestException("column '" + c.getColumn() + "' appears twice in one write");
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
