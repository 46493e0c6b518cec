package org.logbase.client;

import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.logbase.rpc.ScanBatch;
import org.logbase.rpc.ScanRequest;
import org.logbase.rpc.TabletServiceGrpc;

/**
 * One streaming Scan call. Batches arrive on gRPC's threads into a queue the reader drains; the
 * server is asked for one more batch each time the reader takes one, so at most
 * {@code bufferedBatches} batches wait in memory however slow the reader is.
 */
final class TabletStream implements ClientResponseObserver<ScanRequest, ScanBatch> {
  private static final Object END = new Object();

  // Unbounded type, bounded in practice by flow control: never more than bufferedBatches + 2 entries.
  private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
  private final int bufferedBatches;
  private volatile ClientCallStreamObserver<ScanRequest> call;

  private TabletStream(int bufferedBatches) {
    this.bufferedBatches = bufferedBatches;
  }

  static TabletStream start(Channel channel, Deadline deadline, ScanRequest request, int bufferedBatches) {
    TabletStream stream = new TabletStream(bufferedBatches);
    TabletServiceGrpc.newStub(channel).withDeadline(deadline).scan(request, stream);
    return stream;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<ScanRequest> requestStream) {
    this.call = requestStream;
    requestStream.disableAutoRequestWithInitial(bufferedBatches);
  }

  @Override
  public void onNext(ScanBatch batch) {
    events.add(batch);
  }

  @Override
  public void onError(Throwable t) {
    events.add(t instanceof StatusRuntimeException s ? s : Status.fromThrowable(t).asRuntimeException());
  }

  @Override
  public void onCompleted() {
    events.add(END);
  }

  /**
   * The next batch, blocking until it arrives; null once the stream has ended.
   *
   * @throws StatusRuntimeException how the stream failed
   */
  ScanBatch next() throws InterruptedException {
    Object e = events.take();
    if (e == END) {
      events.add(END); // stay at the end for further calls
      return null;
    }
    if (e instanceof StatusRuntimeException s) {
      events.add(s);
      throw s;
    }
    call.request(1);
    return (ScanBatch) e;
  }

  /** Stops the call; the server sees it cancelled. */
  void cancel() {
    call.cancel("scan closed by the client", null);
  }
}
