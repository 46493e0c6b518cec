package org.logbase.tabletserver.server;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.logbase.common.CorruptRecordException;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a service method's body and turns whatever it throws into a typed gRPC status. Every body
 * and every answer is confirmed first ({@link #confirm}): a server that may not answer (not
 * registered yet, or its tablets may be served elsewhere by now: its serving lease lapsed, see
 * {@link ServingLease}) starts no work for a request, and answers nothing, not even what it
 * computed before.
 */
final class Calls {
  private static final Logger LOG = LoggerFactory.getLogger(Calls.class);

  /** A body that may throw anything. */
  @FunctionalInterface
  interface Body<T> {
    T call() throws Exception;
  }

  private final Runnable confirm;

  /** @param confirm throws when this server may not answer (run before every body and every answer) */
  Calls(Runnable confirm) {
    this.confirm = confirm;
  }

  /** Throws when this server may no longer answer: between producing an answer and sending it. */
  void confirm() {
    confirm.run();
  }

  <T> void unary(StreamObserver<T> observer, Body<T> body) {
    T result;
    try {
      confirm.run();
      result = body.call();
      confirm.run();
    } catch (Exception e) {
      fail(observer, e);
      return;
    }
    observer.onNext(result);
    observer.onCompleted();
  }

  /** Answers when the future completes, without holding a gRPC thread while the log flushes. */
  <T> void async(StreamObserver<T> observer, Supplier<CompletableFuture<T>> body) {
    CompletableFuture<T> f;
    try {
      confirm.run();
      f = body.get();
    } catch (RuntimeException e) {
      fail(observer, e);
      return;
    }
    f.whenComplete((result, error) -> {
      if (error != null) {
        fail(observer, error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
      } else {
        try {
          confirm.run();
        } catch (RuntimeException e) {
          fail(observer, e);
          return;
        }
        observer.onNext(result);
        observer.onCompleted();
      }
    });
  }

  /**
   * Fails the call with {@code e} as the caller should see it. A failure that would go out as the
   * server's own (internal) error while this server may no longer answer (it is stopping, or its
   * lease lapsed: a file system closed under a scan, say) goes out as that refusal instead, which
   * clients take to another server.
   */
  void fail(StreamObserver<?> observer, Throwable e) {
    Throwable typed = StorageFailures.forCaller(e);
    boolean serversOwn = !(typed instanceof LogBaseException) && !(typed instanceof IllegalArgumentException);
    if (serversOwn) {
      try {
        confirm.run();
      } catch (RuntimeException refusal) {
        LOG.info("a request failed as this server stopped answering ({}); answered: {}", e.toString(),
            refusal.getMessage());
        observer.onError(RpcErrors.toStatus(refusal));
        return;
      }
    }
    if (serversOwn || typed instanceof CorruptRecordException) {
      LOG.warn("request failed", e);
    } else if (typed != e) {
      LOG.debug("request failed: {}", typed.toString()); // the file system: its outage is logged where it is met
    }
    observer.onError(RpcErrors.toStatus(typed));
  }
}
