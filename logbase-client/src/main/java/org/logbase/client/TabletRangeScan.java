package org.logbase.client;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Arrays;
import org.logbase.common.LogBaseException;
import org.logbase.rpc.ScanBatch;
import org.logbase.rpc.ScanRequest;
import org.logbase.rpc.ValueFilter;

/**
 * The part [start, end) of a scan that one tablet serves, and its stream once started. Remembers
 * the last key received, so that after a failure the scan resumes right after it.
 */
final class TabletRangeScan {
  private final TableLocations locations;
  private final TabletInfo tablet;
  private final byte[] start;
  private final byte[] end;
  private TabletStream stream;
  private byte[] lastKey;

  /** @param locations the locations this part was planned from; dropped if they prove stale */
  TabletRangeScan(TableLocations locations, TabletInfo tablet, byte[] start, byte[] end) {
    this.locations = locations;
    this.tablet = tablet;
    this.start = start;
    this.end = end;
  }

  boolean started() {
    return stream != null;
  }

  /** Starts streaming; {@code limit} caps its rows (0 = no cap). */
  void start(TabletRpc rpc, String table, ScanSpec spec, int limit) {
    ScanRequest.Builder request = ScanRequest.newBuilder()
        .setTablet(TabletRpc.ref(table, tablet))
        .setStartKey(ByteString.copyFrom(start))
        .setEndKey(ByteString.copyFrom(end))
        .addAllColumns(spec.columns())
        .setAsOf(Protos.asOf(spec.asOf()))
        .setLimit(limit)
        .setBatchRows(spec.batchRows())
        .setReverse(spec.reverse());
    if (spec.filter() != null) {
      request.setFilter(ValueFilter.newBuilder().setColumn(spec.filter().column())
          .setValue(ByteString.copyFrom(spec.filter().value())).setPrefix(spec.filter().prefix()));
    }
    stream = TabletStream.start(rpc.channel(tablet), rpc.settings().newDeadline(), request.build(),
        rpc.settings().scanBufferedBatches());
  }

  /**
   * The next batch, or null when this part is done.
   *
   * @throws LogBaseException the typed failure; stale locations are dropped first
   */
  ScanBatch next(TabletRpc rpc, String table) throws InterruptedException {
    try {
      ScanBatch batch = stream.next();
      if (batch != null && batch.getRowsCount() > 0) {
        lastKey = batch.getRows(batch.getRowsCount() - 1).getKey().toByteArray();
      }
      return batch;
    } catch (StatusRuntimeException e) {
      throw Rpcs.failure(e, "scan of table '" + table + "'", () -> rpc.locations().invalidate(locations));
    }
  }

  /**
   * Whether a failure can be resumed without pause: the stream outlived its deadline while its
   * reader was slow, after having delivered rows.
   */
  boolean expiredAfterProgress(LogBaseException failure) {
    return lastKey != null
        && failure.getCause() instanceof StatusRuntimeException s
        && s.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED;
  }

  /** A reverse scan's replacement covers [start, this): the keys before the last one received. */
  byte[] resumeEnd() {
    return lastKey == null ? end : lastKey.clone();
  }

  byte[] start() {
    return start;
  }

  /** Where a replacement scan starts: right after the last key received. */
  byte[] resumeKey() {
    if (lastKey == null) {
      return start;
    }
    return Arrays.copyOf(lastKey, lastKey.length + 1); // the smallest key greater than lastKey
  }

  byte[] end() {
    return end;
  }

  void cancel() {
    if (stream != null) {
      stream.cancel();
    }
  }
}
