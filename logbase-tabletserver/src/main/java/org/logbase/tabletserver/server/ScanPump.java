package org.logbase.tabletserver.server;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.logbase.common.Row;
import org.logbase.common.rpc.RowProtos;
import org.logbase.files.ReadsInProgress;
import org.logbase.rpc.ScanBatch;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a scan's batches while the call is ready (gRPC flow control: a batch is produced only when
 * the client can take it); gRPC serialises its runs. The scan is a read in progress until it ends,
 * fails, is cancelled or is ended by {@link OpenScans} (idle too long, its tablet closed here), so
 * that no compaction meanwhile drops a version it reads and no file it reads is deleted; the
 * tablet's cursors (open between batches) are closed then, before the read ends.
 */
final class ScanPump implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ScanPump.class);
  private final ServerCallStreamObserver<ScanBatch> call;
  private final RowBatches rows;
  private final Calls calls;
  private final ReadsInProgress.Read read;
  private final OpenScans.Slot slot;
  private final TabletId tablet;
  private final OpenScans open;
  /** Held while batches are made and sent, and while a sweep ends the call: one thread uses the call at a time. */
  private final ReentrantLock sending = new ReentrantLock();
  private final AtomicBoolean ended = new AtomicBoolean();
  private final AtomicBoolean stopping;
  private volatile long lastSentNanos = System.nanoTime();
  /** Set by {@link #expire}: the call fails with it before its next batch. */
  private volatile RuntimeException expired;
  private boolean done; // guarded by sending

  /**
   * @param stopping set when the scan is expired, so that a batch being made (a reverse scan reads
   *     its whole range in one) stops early
   */
  ScanPump(ServerCallStreamObserver<ScanBatch> call, RowBatches rows, Calls calls, ReadsInProgress.Read read,
      OpenScans.Slot slot, TabletId tablet, OpenScans open, AtomicBoolean stopping) {
    this.calls = calls;
    this.call = call;
    this.rows = rows;
    this.read = read;
    this.slot = slot;
    this.tablet = tablet;
    this.open = open;
    this.stopping = stopping;
  }

  /** Starts the stream: registers the scan, the call's handlers, and sends what the call can take now. */
  void start() {
    call.setOnCancelHandler(this::end);
    call.setOnReadyHandler(this);
    open.add(this);
    run();
  }

  @Override
  public void run() {
    sending.lock();
    try {
      while (!done && call.isReady() && !call.isCancelled()) {
        if (expired != null) {
          fail(expired);
          return;
        }
        ScanBatch.Builder b = ScanBatch.newBuilder();
        for (Row r : rows.next()) {
          b.addRows(RowProtos.toProto(r));
        }
        rows.release(); // the values are in the message: the blocks they were read from may be reused
        calls.confirm();
        if (b.getRowsCount() > 0) {
          call.onNext(b.build());
        }
        lastSentNanos = System.nanoTime();
        if (rows.exhausted()) {
          done = true;
          end();
          call.onCompleted();
        }
      }
    } catch (Exception | Error e) {
      if (done) { // completed, then the completion itself failed: the call is over
        LOG.warn("completing a scan call failed: {}", e.toString());
      } else {
        fail(expired != null ? expired : e); // a scan ended by a sweep fails reading its closed cursors
      }
    } finally {
      sending.unlock();
    }
  }

  /** The tablet scanned. */
  TabletId tablet() {
    return tablet;
  }

  /**
   * Ends the call with {@code reason} from another thread: now if no batch is being made, else
   * before the next one.
   */
  void expire(RuntimeException reason) {
    expired = reason;
    stopping.set(true);
    if (sending.tryLock()) {
      try {
        if (!done) {
          fail(reason);
        }
      } finally {
        sending.unlock();
      }
    }
  }

  /**
   * Ends the call if no batch is being made and none was sent for {@code idleNanos}.
   *
   * @return whether this ended it
   */
  boolean endIfIdle(long nowNanos, long idleNanos, Supplier<RuntimeException> reason) {
    if (nowNanos - lastSentNanos < idleNanos || !sending.tryLock()) {
      return false;
    }
    try {
      if (done || nowNanos - lastSentNanos < idleNanos) {
        return false;
      }
      fail(reason.get());
      return true;
    } finally {
      sending.unlock();
    }
  }

  /** Ends the call with a failure; under {@link #sending}. */
  private void fail(Throwable e) {
    done = true;
    end();
    if (call.isCancelled()) {
      return;
    }
    if (e instanceof StatusRuntimeException s) { // a status of the server's own choosing, no error
      call.onError(s);
    } else {
      calls.fail(call, e);
    }
  }


  /** The call ended (done, failed, cancelled or expired): the tablet's cursors are closed, then the read ends. */
  private void end() {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    try {
      rows.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("closing a scan's cursors failed: {}", e.toString());
    } finally {
      read.close();
      open.remove(this);
      slot.close();
    }
  }
}
