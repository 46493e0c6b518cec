package org.logbase.client;

import java.util.concurrent.Future;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.logbase.common.ErrorCode;
import org.logbase.common.Failures;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.BatchMutateRequest;
import org.logbase.rpc.BatchMutateResponse;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.TabletRef;

/**
 * Merges single-row writes that callers make at the same time to the same tablet into one
 * BatchMutate request: the client half of group commit. A write to a tablet with fewer than
 * {@code maxInFlight} requests outstanding leaves at once; writes that arrive while the tablet is
 * busy wait and leave together, as one request, when an outstanding one returns. Nothing waits for
 * a timer, so a lone caller sees the latency of a plain put, while many callers share one request,
 * one range of oracle timestamps and one log flush on the server.
 *
 * <p>Each write stays its own atomic version with its own timestamp, and each caller still blocks
 * until its own write is durable. A batch refused by the server for a reason other than routing
 * (for example one row naming a column outside the schema) is not charged to every writer in it:
 * each of them is sent again on its own and learns its own outcome. Routing and transport failures
 * (tablet moved, server gone) reach every writer of the batch, whose retry loop looks the tablet up
 * again.
 */
final class WriteCoalescer {
  /** Sends one BatchMutate; the production sender is a gRPC future stub. */
  @FunctionalInterface
  interface Sender {
    ListenableFuture<BatchMutateResponse> send(Route route, BatchMutateRequest request, Deadline deadline);
  }

  /** Where a write goes: a tablet at the server that serves it (a moved tablet is a new route). */
  record Route(String address, TabletRef tablet) {}

  /** Thrown to a caller whose write was in a refused batch: it must be sent on its own. */
  private static final class SendAlone extends RuntimeException {
    SendAlone() {
      super(null, null, false, false);
    }
  }

  private record Pending(Mutation mutation, Durability durability, Deadline deadline, CompletableFuture<Long> done) {}

  private final Sender sender;
  private final boolean enabled;
  private final int maxInFlight;
  private final int maxRows;
  private final long maxBytes;
  // One lane per route ever written to: bounded by the tablets (and their moves) a client touches.
  private final Map<Route, Lane> lanes = new ConcurrentHashMap<>();

  /**
   * @param enabled false sends every write on its own (one request per write)
   * @param maxInFlight requests one tablet may have outstanding before writes start to wait
   * @param maxRows most writes in one request
   * @param maxBytes most mutation bytes in one request (one larger write still goes, alone)
   */
  WriteCoalescer(Sender sender, boolean enabled, int maxInFlight, int maxRows, long maxBytes) {
    if (maxInFlight < 1 || maxRows < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "coalescing limits must be positive: in flight " + maxInFlight + ", rows " + maxRows + ", bytes " + maxBytes);
    }
    this.sender = sender;
    this.enabled = enabled;
    this.maxInFlight = maxInFlight;
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
  }

  /**
   * Writes one row and waits until it is durable.
   *
   * @return the write's commit timestamp
   * @throws StatusRuntimeException the failure of the request that carried the write
   */
  long write(Route route, Mutation mutation, Durability durability, Deadline deadline) {
    if (!enabled) {
      return alone(route, mutation, durability, deadline);
    }
    Pending p = new Pending(mutation, durability, deadline, new CompletableFuture<>());
    lanes.computeIfAbsent(route, Lane::new).submit(p);
    try {
      return await(p.done, deadline);
    } catch (SendAlone refusedBatch) {
      return alone(route, mutation, durability, deadline);
    }
  }

  /** Writes waiting for a request to {@code route}, callers that gave up not counted (for tests and diagnostics). */
  int waiting(Route route) {
    Lane lane = lanes.get(route);
    return lane == null ? 0 : lane.waiting();
  }

  private long alone(Route route, Mutation mutation, Durability durability, Deadline deadline) {
    ListenableFuture<BatchMutateResponse> f = sender.send(route, request(route, List.of(mutation), durability), deadline);
    BatchMutateResponse r = await(f, deadline);
    if (r.getTimestampsCount() != 1) {
      throw new LogBaseException("the server answered " + r.getTimestampsCount() + " timestamps for 1 write");
    }
    return r.getTimestamps(0);
  }

  private static <T> T await(Future<T> f, Deadline deadline) {
    try {
      // A request carries its writers' latest deadline, so gRPC ends it by then; a writer with an
      // earlier one stops waiting at its own (its write's outcome is then unknown, as after any
      // deadline). The grace lets the request's own answer win the race at the deadline.
      return f.get(deadline.timeRemaining(TimeUnit.MILLISECONDS) + 1_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true); // true: a gRPC future's call is cancelled only so
      throw new LogBaseException("interrupted while waiting for a write");
    } catch (TimeoutException e) {
      f.cancel(true); // a write still waiting is then dropped, not sent behind the caller's back
      throw new StatusRuntimeException(Status.DEADLINE_EXCEEDED.withDescription("no answer to a write"));
    } catch (CancellationException e) {
      throw new StatusRuntimeException(Status.CANCELLED.withDescription("write cancelled"));
    } catch (ExecutionException e) {
      throw Failures.cause(e, "write");
    }
  }

  private static BatchMutateRequest request(Route route, List<Mutation> mutations, Durability durability) {
    return BatchMutateRequest.newBuilder()
        .setTablet(route.tablet())
        .addAllMutations(mutations)
        .setDurability(durability.toProto())
        // Several callers' writes must not all wait for one row's prepared transaction.
        .setRefuseIfPrepared(mutations.size() > 1)
        .build();
  }

  /** Refusals of one row's input, which the server makes before it appends anything. */
  private static final Set<String> ROW_REFUSALS = Set.of(ErrorCode.COLUMN_NOT_IN_SCHEMA.name(),
      ErrorCode.VALUE_TOO_LARGE.name(), ErrorCode.KEY_OUT_OF_RANGE.name(), ErrorCode.INVALID_REQUEST.name(),
      // A row held by a prepared transaction: alone, only its own writer waits for the decision.
      ErrorCode.ROW_LOCKED.name());

  /**
   * Whether a refused batch of several writes must be split: the refusal may concern one of them,
   * and nothing of the batch was written. Only such refusals qualify: after any other failure
   * (an internal error, a lost answer) some rows may be in the log already, and sending them again
   * would write them twice.
   */
  static boolean refusedForOneRow(StatusRuntimeException e) {
    String code = e.getTrailers() == null ? null : e.getTrailers().get(RpcErrors.ERROR_CODE);
    if (e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED && code == null) {
      return true; // the request as a whole was over the message limit, refused on arrival
    }
    return code != null && ROW_REFUSALS.contains(code);
  }

  /** The writes waiting for, and the requests outstanding to, one route. */
  private final class Lane {
    private final Route route;
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private int inFlight; // guarded by this

    Lane(Route route) {
      this.route = route;
    }

    synchronized int waiting() {
      return (int) waiting.stream().filter(p -> !p.done().isDone()).count();
    }

    void submit(Pending p) {
      List<Pending> batch;
      synchronized (this) {
        waiting.add(p);
        batch = takeBatch();
      }
      send(batch);
    }

    /** The next batch if a request may start now, else null; counts it in flight. */
    private List<Pending> takeBatch() {
      if (inFlight >= maxInFlight || waiting.isEmpty()) {
        return null;
      }
      List<Pending> batch = new ArrayList<>(Math.min(waiting.size(), maxRows));
      long bytes = 0;
      while (!waiting.isEmpty() && batch.size() < maxRows) {
        Pending next = waiting.peek();
        if (next.done().isDone()) {
          waiting.poll(); // its caller gave up (interrupted): it must not be written behind its back
          continue;
        }
        if (next.deadline().isExpired()) {
          waiting.poll();
          next.done().completeExceptionally(
              new StatusRuntimeException(Status.DEADLINE_EXCEEDED.withDescription("write waited past its deadline")));
          continue;
        }
        long size = next.mutation().getSerializedSize();
        if (!batch.isEmpty() && bytes + size > maxBytes) {
          break;
        }
        bytes += size;
        batch.add(waiting.poll());
      }
      if (batch.isEmpty()) {
        return null;
      }
      inFlight++;
      return batch;
    }

    private void send(List<Pending> batch) {
      while (batch != null) {
        List<Mutation> mutations = new ArrayList<>(batch.size());
        Durability durability = Durability.HFLUSH;
        Deadline deadline = null;
        for (Pending p : batch) {
          mutations.add(p.mutation());
          if (p.durability() == Durability.HSYNC) {
            durability = Durability.HSYNC; // the strongest asked for serves everyone
          }
          // The latest: a writer on its last retry must not cut the others' time short; each
          // caller still stops waiting at its own deadline.
          if (deadline == null || deadline.isBefore(p.deadline())) {
            deadline = p.deadline();
          }
        }
        ListenableFuture<BatchMutateResponse> call;
        try {
          call = sender.send(route, request(route, mutations, durability), deadline);
        } catch (RuntimeException e) {
          batch = finished(batch, null, e);
          continue;
        }
        if (call.isDone()) {
          // Failed at once (channel shut down): settle here rather than recursing through callbacks.
          batch = finished(batch, call);
          continue;
        }
        List<Pending> sent = batch;
        Futures.addCallback(call, new FutureCallback<>() {
          @Override
          public void onSuccess(BatchMutateResponse r) {
            send(finished(sent, r, null));
          }

          @Override
          public void onFailure(Throwable t) {
            send(finished(sent, null, t));
          }
        }, MoreExecutors.directExecutor());
        return;
      }
    }

    private List<Pending> finished(List<Pending> batch, ListenableFuture<BatchMutateResponse> done) {
      try {
        return finished(batch, Futures.getDone(done), null);
      } catch (ExecutionException e) {
        return finished(batch, null, e.getCause());
      } catch (RuntimeException e) { // cancelled
        return finished(batch, null, e);
      }
    }

    /** Settles a batch's callers; returns the next batch to send, if any. */
    private List<Pending> finished(List<Pending> batch, BatchMutateResponse r, Throwable failure) {
      if (r != null && r.getTimestampsCount() != batch.size()) {
        failure = new LogBaseException(
            "the server answered " + r.getTimestampsCount() + " timestamps for " + batch.size() + " writes");
      }
      if (failure == null) {
        for (int i = 0; i < batch.size(); i++) {
          batch.get(i).done().complete(r.getTimestamps(i));
        }
      } else {
        Throwable each = batch.size() > 1 && failure instanceof StatusRuntimeException s && refusedForOneRow(s)
            ? new SendAlone() : failure;
        batch.forEach(p -> p.done().completeExceptionally(each));
      }
      synchronized (this) {
        inFlight--;
        return takeBatch();
      }
    }
  }
}
