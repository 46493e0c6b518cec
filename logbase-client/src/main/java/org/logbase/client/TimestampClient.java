package org.logbase.client;

import org.logbase.common.LogBaseException;
import org.logbase.common.TimestampRequests;
import org.logbase.rpc.TimestampRange;
import org.logbase.rpc.TimestampRequest;

/**
 * Timestamps from the cluster's timestamp oracle (the active master), from
 * {@link LogBaseClient#timestamps()}: 64-bit hybrid timestamps {@code (wall ms << 16) | counter}
 * (see {@link org.logbase.common.HybridTimestamp}), unique across the cluster and increasing.
 *
 * <p>Every timestamp returned is fresh: it was handed out by the oracle after the call began, so it
 * is greater than every timestamp anyone obtained before that moment, and a snapshot read at it sees
 * every commit that finished before the call. Nothing is fetched ahead for that reason; instead,
 * concurrent calls are batched: while one request to the master is in flight, further calls wait
 * and then share one request for all of them.
 *
 * <p>Calls ride through master failovers until {@code rpc.deadline.ms}: the new master starts above
 * every timestamp the old one handed out. Thread-safe.
 */
public final class TimestampClient {
  private final TimestampBatcher batcher;
  private final ClientSettings settings;

  TimestampClient(MasterRpc master, ClientSettings settings) {
    this.settings = settings;
    this.batcher = new TimestampBatcher((count, deadline) -> {
      TimestampRequest request = TimestampRequest.newBuilder().setCount(count).build();
      // The call serves every request batched into it, not only its sender's.
      TimestampRange range = DetachedCalls.start(
          () -> master.call("get timestamps", deadline, stub -> stub.getTimestamps(request)));
      if (range.getCount() != count) {
        throw new LogBaseException("asked the master for " + count + " timestamps, got " + range.getCount());
      }
      return range.getFirst();
    }, TimestampRequests.MAX_COUNT);
  }

  /** One fresh timestamp. */
  public long next() {
    return batcher.take(1, settings.newDeadline());
  }

  /**
   * {@code count} fresh, consecutive timestamps in ascending order.
   *
   * @param count 1 .. {@link TimestampRequests#MAX_COUNT}
   * @throws org.logbase.common.InvalidRequestException if {@code count} is out of range
   */
  public long[] next(int count) {
    TimestampRequests.checkCount(count);
    long first = batcher.take(count, settings.newDeadline());
    long[] timestamps = new long[count];
    for (int i = 0; i < count; i++) {
      timestamps[i] = first + i;
    }
    return timestamps;
  }

  /** Calls waiting for the next request to the master (for tests). */
  int queued() {
    return batcher.queued();
  }
}
