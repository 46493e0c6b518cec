package org.logbase.client;

import com.google.protobuf.ByteString;
import io.grpc.Deadline;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.logbase.common.Failures;
import org.logbase.common.LogBaseException;
import org.logbase.common.TimestampRequests;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.BatchMutateRequest;
import org.logbase.rpc.BatchMutateResponse;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.TabletServiceGrpc;

/**
 * Writes many rows of one table: groups them by tablet and sends one BatchMutate per tablet (more
 * where its rows add up to over half the message limit), all in parallel. Groups that fail
 * retriably are regrouped with fresh locations (the tablet may have split or moved) and sent again;
 * groups that succeeded are not repeated.
 */
final class BatchWriter {
  private final TabletRpc rpc;
  private final String table;

  BatchWriter(TabletRpc rpc, String table) {
    this.rpc = rpc;
    this.table = table;
  }

  /** Writes {@code puts}; returns the commit timestamp of each, in order. */
  long[] write(List<Put> puts, Durability durability) {
    long[] timestamps = new long[puts.size()];
    if (puts.isEmpty()) {
      return timestamps;
    }
    List<Integer> pending = new ArrayList<>();
    for (int i = 0; i < puts.size(); i++) {
      pending.add(i);
    }
    Deadline deadline = rpc.settings().newDeadline();
    rpc.retrier().run(deadline, () -> {
      writeOnce(puts, pending, durability, deadline, timestamps);
      return null;
    });
    return timestamps;
  }

  /**
   * One round: sends every pending put, fills in the timestamps of those written and removes them
   * from {@code pending}. Then throws the failure of a group that failed for good, else, if some
   * failed retriably, the retriable failure.
   */
  private void writeOnce(
      List<Put> puts, List<Integer> pending, Durability durability, Deadline deadline, long[] timestamps) {
    TableLocations locs = rpc.locations().get(table, deadline);
    Map<TabletInfo, List<Integer>> groups = new LinkedHashMap<>();
    for (int i : pending) {
      groups.computeIfAbsent(rpc.serving(locs, puts.get(i).key()), t -> new ArrayList<>()).add(i);
    }
    // Keyed by each request's puts (disjoint lists, so equal keys never meet).
    Map<List<Integer>, Future<BatchMutateResponse>> calls = new LinkedHashMap<>();
    groups.forEach((tablet, indexes) -> chunks(puts, indexes).forEach(chunk -> calls.put(chunk,
        TabletServiceGrpc.newFutureStub(rpc.channel(tablet)).withDeadline(deadline)
            .batchMutate(request(tablet, puts, chunk, durability)))));

    List<Integer> stillPending = new ArrayList<>();
    LogBaseException retriable = null;
    LogBaseException fatal = null;
    for (Map.Entry<List<Integer>, Future<BatchMutateResponse>> call : calls.entrySet()) {
      List<Integer> indexes = call.getKey();
      try {
        List<Long> ts = await(call.getValue()).getTimestampsList();
        for (int j = 0; j < indexes.size(); j++) {
          timestamps[indexes.get(j)] = ts.get(j);
        }
      } catch (StatusRuntimeException e) {
        LogBaseException ex = Rpcs.failure(e, "batch put to table '" + table + "'", () -> rpc.locations().invalidate(locs));
        stillPending.addAll(indexes);
        if (RpcErrors.isRetriable(ex)) {
          retriable = ex;
        } else if (fatal == null) {
          fatal = ex;
        }
      }
    }
    pending.retainAll(new HashSet<>(stillPending));
    if (fatal != null) {
      throw fatal;
    }
    if (retriable != null) {
      throw retriable;
    }
  }

  /**
   * A tablet's puts cut into requests of at most half the message limit each (a put alone larger
   * than that goes alone, and the server's limits answer it): 20 rows of 8 MB for one tablet were
   * one request over the limit, refused whole while the other tablets' rows were written. And of at
   * most {@link TimestampRequests#MAX_COUNT} rows, the timestamps one oracle request hands out: a
   * batch of 200,000 small rows was refused with the oracle's own error.
   */
  private List<List<Integer>> chunks(List<Put> puts, List<Integer> indexes) {
    long limit = rpc.settings().maxMessageBytes() / 2;
    List<List<Integer>> chunks = new ArrayList<>();
    List<Integer> current = new ArrayList<>();
    long bytes = 0;
    for (int i : indexes) {
      long size = size(puts.get(i));
      if (!current.isEmpty() && (bytes + size > limit || current.size() == TimestampRequests.MAX_COUNT)) {
        chunks.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(i);
      bytes += size;
    }
    chunks.add(current);
    return chunks;
  }

  /** About the bytes a put takes in a request: its key, and each column's name and value with their framing. */
  private static long size(Put p) {
    long size = p.key().length + 16L;
    for (Map.Entry<String, byte[]> c : p.columns().entrySet()) {
      size += c.getKey().length() * 3L + c.getValue().length + 16L;
    }
    return size;
  }

  private BatchMutateRequest request(TabletInfo tablet, List<Put> puts, List<Integer> indexes, Durability durability) {
    BatchMutateRequest.Builder b = BatchMutateRequest.newBuilder()
        .setTablet(TabletRpc.ref(table, tablet))
        .setDurability(durability.toProto());
    for (int i : indexes) {
      Put p = puts.get(i);
      b.addMutations(Mutation.newBuilder().setKey(ByteString.copyFrom(p.key())).addAllColumns(Protos.columns(p.columns())));
    }
    return b.build();
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw Failures.cause(e, "batch put");
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted during batch put");
    }
  }
}
