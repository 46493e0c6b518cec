package org.logbase.tabletserver.server;

import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.files.ReadsInProgress;
import org.logbase.rpc.ScanBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a scan's batches while the call is ready (gRPC flow control: a batch is produced only when
 * the client can take it); gRPC serialises its runs. The scan is a read in progress until it ends,
 * fails or is cancelled, so that no compaction meanwhile drops a version it reads and no file it
 * reads is deleted; the tablet's cursors (open between batches) are closed then, before the read ends.
 */
final class ScanPump implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ScanPump.class);
  private final ServerCallStreamObserver<ScanBatch> call;
  private final RowBatches rows;
  private final Calls calls;
  private final ReadsInProgress.Read read;
  private boolean done;

  ScanPump(ServerCallStreamObserver<ScanBatch> call, RowBatches rows, Calls calls, ReadsInProgress.Read read) {
    this.calls = calls;
    this.call = call;
    this.rows = rows;
    this.read = read;
    call.setOnCancelHandler(this::end);
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
          end();
          call.onCompleted();
        }
      }
    } catch (Exception e) {
      done = true;
      end();
      if (!call.isCancelled()) {
        Calls.fail(call, e);
      }
    }
  }

  /** The call ended (done, failed or cancelled): the tablet's cursors are closed, then the read ends. */
  private void end() {
    try {
      rows.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("closing a scan's cursors failed: {}", e.toString());
    } finally {
      read.close();
    }
  }
}
