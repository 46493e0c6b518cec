package org.logbase.client;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import io.grpc.Deadline;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.logbase.common.FaultInjector;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerUnresponsiveException;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.CommitRequest;
import org.logbase.rpc.DecideRequest;
import org.logbase.rpc.Mutation;
import org.logbase.rpc.PrepareRequest;
import org.logbase.rpc.ResolveRequest;
import org.logbase.rpc.ResolveResponse;
import org.logbase.rpc.TabletServiceGrpc;
import org.logbase.rpc.TxnWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client side of the commit protocol (docs/transactions.md). Rows on one tablet server: one
 * Commit request. Rows on several: two-phase commit with the first row as primary: prepare the
 * primary's server, then the others in parallel, take the commit timestamp from the oracle, commit
 * the primary (the decision), then the others without waiting.
 */
final class TxnCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(TxnCoordinator.class);

  /** The writes of a transaction that go to one tablet server. */
  private record Participant(String address, TabletInfo anyTablet, List<TxnWrite> writes) {}

  private final TabletRpc rpc;
  private final TimestampClient timestamps;
  private volatile FaultInjector faults = FaultInjector.NONE;

  TxnCoordinator(TabletRpc rpc, TimestampClient timestamps) {
    this.rpc = rpc;
    this.timestamps = timestamps;
  }

  void faults(FaultInjector f) {
    this.faults = f;
  }

  TimestampClient timestamps() {
    return timestamps;
  }

  TabletRpc rpc() {
    return rpc;
  }

  /** Commits the rows (sorted) written by transaction {@code startTs}; returns the commit timestamp. */
  long commit(long startTs, List<TxnRow> rows, Durability durability) {
    Deadline deadline = rpc.settings().newDeadline();
    // Only failures that happen before a participant did anything are retried (tablets moved).
    return rpc.retrier().run(deadline, () -> {
      List<Participant> participants = group(rows, deadline);
      if (participants.size() == 1) {
        return commitOne(startTs, participants.get(0), durability, deadline);
      }
      return twoPhase(startTs, rows.get(0), participants, durability, deadline);
    });
  }

  private long commitOne(long startTs, Participant p, Durability durability, Deadline deadline) {
    CommitRequest req = CommitRequest.newBuilder().setStartTs(startTs).addAllWrites(p.writes())
        .setDurability(durability.toProto()).build();
    try {
      return stub(p, deadline).commit(req).getCommitTs();
    } catch (StatusRuntimeException e) {
      throw routed(e, "commit of transaction " + startTs, p);
    }
  }

  private long twoPhase(long startTs, TxnRow primary, List<Participant> participants, Durability durability,
      Deadline deadline) {
    Participant first = participants.get(0); // group() puts the primary's server first
    List<Participant> prepared = new ArrayList<>();
    try {
      prepare(startTs, primary, first, durability, deadline);
      prepared.add(first);
      Map<Participant, ListenableFuture<?>> calls = new LinkedHashMap<>();
      for (Participant p : participants.subList(1, participants.size())) {
        calls.put(p, TabletServiceGrpc.newFutureStub(rpc.channel(p.anyTablet())).withDeadline(deadline)
            .prepare(prepareRequest(startTs, primary, p, durability)));
      }
      LogBaseException failure = null;
      boolean unknown = false;
      for (Map.Entry<Participant, ListenableFuture<?>> c : calls.entrySet()) {
        try {
          await(c.getValue(), c.getKey());
          prepared.add(c.getKey());
        } catch (LogBaseException e) {
          unknown |= e instanceof OutcomeUnknown;
          failure = failure == null || e instanceof TransactionConflictException ? e : failure;
        }
      }
      if (unknown && !(failure instanceof OutcomeUnknown)) {
        // A prepare that may have happened, behind a refusal reported first: every participant
        // is aborted, and the commit is not tried again with this start timestamp.
        abortAll(startTs, primary, participants, deadline);
        throw failure instanceof TransactionConflictException ? failure
            : new TransactionAbortedException("transaction " + startTs + " aborted: " + failure.getMessage());
      }
      if (failure != null) {
        throw failure;
      }
      faults.at("txn.prepared");
    } catch (LogBaseException | IOException e) {
      // A participant whose prepare's outcome is unknown may have prepared all the same (its answer
      // lost): abort every one then. One that refused (a wrong route, a conflict) prepared nothing,
      // and after a wrong route the commit is tried again with these same participants.
      abortAll(startTs, primary, e instanceof OutcomeUnknown ? participants : prepared, deadline);
      if (!prepared.isEmpty() && e instanceof NotServingTabletException) {
        // Not tried again under this start timestamp: an abort just sent may reach a participant
        // after the next attempt prepared there again (it waits no longer than its own deadline)
        // and take back that attempt's half. Aborted, the transaction runs again from the start.
        TransactionAbortedException aborted = new TransactionAbortedException("transaction " + startTs
            + " aborted: a tablet it writes moved while it prepared (" + e.getMessage() + "); run it again");
        aborted.initCause(e);
        throw aborted;
      }
      throw notCommitted(startTs, e);
    }
    long commitTs = timestamps.next();
    try {
      faults.at("txn.commit-timestamp");
    } catch (IOException e) {
      throw new LogBaseException("transaction " + startTs + ": " + e, e);
    }
    // The decision. Deciding is idempotent on the primary, so an answer lost on the way is asked
    // again, of whichever server holds the primary row by then: one that took its tablet over after a
    // failover carried the prepared primary over from the dead server's log.
    try {
      rpc.retrier().run(deadline, () -> {
        TableLocations locs = rpc.locations().get(primary.table, deadline);
        TabletInfo tablet = rpc.serving(locs, primary.key);
        try {
          TabletServiceGrpc.newBlockingStub(rpc.channel(tablet)).withDeadline(rpc.settings().attemptDeadline(deadline))
              .decide(decideRequest(startTs, primary, true, commitTs, true, durability));
          return null;
        } catch (StatusRuntimeException e) {
          LogBaseException ex = RpcErrors.fromStatus(e, "commit of transaction " + startTs + " at its primary");
          if (RpcErrors.isRetriable(ex) || RpcErrors.isDeadlineExceeded(ex)) {
            rpc.forget(locs, tablet);
            if (RpcErrors.isDeadlineExceeded(ex) && !deadline.isExpired()) {
              ServerUnresponsiveException slow = new ServerUnresponsiveException(ex.getMessage());
              slow.initCause(e);
              throw slow; // this attempt's time ran out, not the commit's: ask again
            }
          }
          throw ex;
        }
      });
    } catch (TransactionAbortedException e) {
      abortAll(startTs, primary, participants.subList(1, participants.size()), deadline);
      throw e;
    } catch (LogBaseException e) {
      // The decision may or may not be written: a retry of the transaction could apply it twice.
      throw new LogBaseException("commit of transaction " + startTs + " at its primary: outcome unknown ("
          + e.getMessage() + ")", e);
    }
    for (Participant p : participants.subList(1, participants.size())) {
      // Secondaries commit after the decision; a lost message is made good by whoever meets the lock.
      // The messages outlive this call: they start outside its gRPC context (a server's request
      // that commits would otherwise cancel them as it returns).
      DetachedCalls.start(() -> TabletServiceGrpc.newFutureStub(rpc.channel(p.anyTablet())).withDeadline(deadline)
          .decide(decideRequest(startTs, primary, true, commitTs, false, durability)));
    }
    return commitTs;
  }

  private void prepare(long startTs, TxnRow primary, Participant p, Durability durability, Deadline deadline) {
    try {
      stub(p, deadline).prepare(prepareRequest(startTs, primary, p, durability));
    } catch (StatusRuntimeException e) {
      throw routed(e, "prepare of transaction " + startTs, p);
    }
  }

  /**
   * Best effort: a participant that misses its ABORT is resolved through the primary later. The
   * aborts go out together, each with at least an attempt's time of its own: a commit that spent its
   * whole deadline waiting for a paused server still frees the rows it locked on the others (sent
   * with that deadline, they failed before they left). They outlive this call, which waits for them
   * only until the commit's deadline.
   */
  private void abortAll(long startTs, TxnRow primary, List<Participant> ps, Deadline deadline) {
    Deadline attempt = Deadline.after(rpc.settings().attemptTimeoutMs(), TimeUnit.MILLISECONDS);
    Deadline own = attempt.isBefore(deadline) ? deadline : attempt;
    Map<Participant, ListenableFuture<?>> calls = new LinkedHashMap<>();
    for (Participant p : ps) {
      calls.put(p, DetachedCalls.start(() -> TabletServiceGrpc.newFutureStub(rpc.channel(p.anyTablet()))
          .withDeadline(own).decide(decideRequest(startTs, primary, false, 0, false, Durability.HFLUSH))));
    }
    for (Map.Entry<Participant, ListenableFuture<?>> c : calls.entrySet()) {
      try {
        c.getValue().get(Math.max(0, deadline.timeRemaining(TimeUnit.NANOSECONDS)), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        LOG.debug("abort of transaction {} at {} failed: {}", startTs, c.getKey().address(), e.getCause().toString());
      } catch (TimeoutException e) {
        return; // the commit's time is spent; the aborts go on without it
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Asks the server of a transaction's primary row for its outcome, aborting it there if it is
   * still undecided. Returns the commit timestamp, or -1 if it is aborted.
   */
  long resolve(long txnId, String primaryTable, byte[] primaryKey) {
    ResolveResponse r = rpc.call(primaryTable, primaryKey, "resolve transaction " + txnId, (stub, ref) ->
        stub.resolve(ResolveRequest.newBuilder().setStartTs(txnId).setPrimaryTable(primaryTable)
            .setPrimaryKey(ByteString.copyFrom(primaryKey)).build()));
    return r.getCommitted() ? r.getCommitTs() : -1;
  }

  /** Groups rows by tablet server, the primary's (the first row's) server first. */
  private List<Participant> group(List<TxnRow> rows, Deadline deadline) {
    Map<String, Participant> byServer = new LinkedHashMap<>();
    for (TxnRow row : rows) {
      TabletInfo tablet = rpc.serving(rpc.locations().get(row.table, deadline), row.key);
      Participant p = byServer.computeIfAbsent(tablet.address(), a -> new Participant(a, tablet, new ArrayList<>()));
      Mutation.Builder m = Mutation.newBuilder().setKey(ByteString.copyFrom(row.key));
      if (row.isDelete()) {
        m.setDelete(true);
      } else {
        m.addAllColumns(Protos.columns(row.columns));
      }
      p.writes().add(TxnWrite.newBuilder().setTablet(TabletRpc.ref(row.table, tablet)).setMutation(m).build());
    }
    return new ArrayList<>(byServer.values());
  }

  private PrepareRequest prepareRequest(long startTs, TxnRow primary, Participant p, Durability durability) {
    return PrepareRequest.newBuilder().setStartTs(startTs).addAllWrites(p.writes())
        .setPrimaryTable(primary.table).setPrimaryKey(ByteString.copyFrom(primary.key))
        .setDurability(durability.toProto()).build();
  }

  private static DecideRequest decideRequest(long startTs, TxnRow primary, boolean commit, long commitTs,
      boolean isPrimary, Durability durability) {
    return DecideRequest.newBuilder().setStartTs(startTs).setCommit(commit).setCommitTs(commitTs)
        .setPrimaryTable(primary.table).setPrimaryKey(ByteString.copyFrom(primary.key)).setIsPrimary(isPrimary)
        .setDurability(durability.toProto()).build();
  }

  private TabletServiceGrpc.TabletServiceBlockingStub stub(Participant p, Deadline deadline) {
    return TabletServiceGrpc.newBlockingStub(rpc.channel(p.anyTablet())).withDeadline(deadline);
  }

  /**
   * A failed call's typed exception. A wrong route, and a server not reached (dead, cut off, too
   * slow), make the client look its tables up again: after a failover the next transaction goes to
   * the tablets' new servers instead of failing at the dead one until something else refreshes them.
   */
  private LogBaseException routed(StatusRuntimeException e, String what, Participant p) {
    LogBaseException ex = RpcErrors.fromStatus(e, what);
    if (ex instanceof NotServingTabletException) {
      rpc.locations().forgetAll();
      return ex;
    }
    if (RpcErrors.isRetriable(ex) || RpcErrors.isDeadlineExceeded(ex)) {
      rpc.forgetServer(p.address());
      // The server may or may not have acted: never repeat blindly.
      return new OutcomeUnknown(what + ": outcome unknown (" + ex.getMessage() + ")", ex);
    }
    return ex;
  }

  /**
   * What a transaction that failed before its decision throws: the coordinator never writes the
   * decision then, and a prepared primary without one is aborted by whoever meets its locks, so the
   * transaction is aborted even where a prepare's outcome was unknown; {@link
   * TransactionAbortedException} says so, and {@link LogBaseClient#inTransaction} runs it again. A
   * wrong route stays retriable as it was (nothing was prepared there), and refusals (conflicts,
   * bad input) stay what they are.
   */
  private static LogBaseException notCommitted(long startTs, Exception e) {
    if (e instanceof OutcomeUnknown unknown) {
      String message = "transaction " + startTs + " aborted: " + unknown.getCause().getMessage()
          + "; it was not committed, and is rolled back wherever it was prepared";
      if (unknown.getCause() instanceof LogBaseException cause && RpcErrors.isDeadlineExceeded(cause)) {
        // The commit's whole time is spent (a server paused or cut off): aborted all the same, but
        // not as the retriable abort, which inTransaction would run again into the same wall.
        return new LogBaseException(message, cause);
      }
      TransactionAbortedException aborted = new TransactionAbortedException(message);
      aborted.initCause(unknown.getCause());
      return aborted;
    }
    return e instanceof LogBaseException l ? l : new LogBaseException("transaction " + startTs + ": " + e, e);
  }

  /** A call whose server may or may not have acted on it. */
  private static final class OutcomeUnknown extends LogBaseException {
    OutcomeUnknown(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private void await(ListenableFuture<?> f, Participant p) {
    try {
      f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StatusRuntimeException s) {
        throw routed(s, "prepare at " + p.address(), p);
      }
      throw new LogBaseException("prepare failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted during prepare");
    }
  }
}
