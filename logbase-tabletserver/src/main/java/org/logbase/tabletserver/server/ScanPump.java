package org.logbase.tabletserver.server;

import io.grpc.stub.ServerCallStreamObserver;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.rpc.ScanBatch;

/**
 * Streams a scan's batches while the call is ready (gRPC flow control: a batch is produced only when
 * the client can take it); gRPC serialises its runs.
 */
final class ScanPump implements Runnable {
  private final ServerCallStreamObserver<ScanBatch> call;
  private final RowBatches rows;
  private final Calls calls;
  private boolean done;

  ScanPump(ServerCallStreamObserver<ScanBatch> call, RowBatches rows, Calls calls) {
    this.calls = calls;
    this.call = call;
    this.rows = rows;
  }

  @Override
  public void run() {
    try {
      while (!done && call.isReady() && !call.isCancelled()) {
        ScanBatch.Builder b = ScanBatch.newBuilder();
        for (Row r : rows.next()) {
          b.addRows(RowProtos.toProto(r));
        }
        calls.confirm();
        if (b.getRowsCount() > 0) {
          call.onNext(b.build());
        }
        if (rows.exhausted()) {
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
