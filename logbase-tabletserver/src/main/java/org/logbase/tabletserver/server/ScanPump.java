package org.logbase.tabletserver.server;

import io.grpc.stub.ServerCallStreamObserver;
import org.logbase.common.Row;
import org.logbase.compaction.SnapshotsInUse;
import org.logbase.common.rpc.RowProtos;
import org.logbase.rpc.ScanBatch;

/**
 * Streams a scan's batches while the call is ready (gRPC flow control: a batch is produced only when
 * the client can take it); gRPC serialises its runs. Holds the scan's snapshot until the scan ends,
 * fails or is cancelled, so that no compaction meanwhile drops a version it reads.
 */
final class ScanPump implements Runnable {
  private final ServerCallStreamObserver<ScanBatch> call;
  private final RowBatches rows;
  private final Calls calls;
  private final SnapshotsInUse.Hold snapshot;
  private boolean done;

  ScanPump(ServerCallStreamObserver<ScanBatch> call, RowBatches rows, Calls calls, SnapshotsInUse.Hold snapshot) {
    this.calls = calls;
    this.call = call;
    this.rows = rows;
    this.snapshot = snapshot;
    call.setOnCancelHandler(snapshot::close);
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
          snapshot.close();
          call.onCompleted();
        }
      }
    } catch (Exception e) {
      done = true;
      snapshot.close();
      if (!call.isCancelled()) {
        Calls.fail(call, e);
      }
    }
  }
}
