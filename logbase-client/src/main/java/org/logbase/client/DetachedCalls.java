package org.logbase.client;

import io.grpc.Context;
import java.util.function.Supplier;

/**
 * Starts calls that serve several callers at once (a batch of timestamp requests, a batch of
 * coalesced writes), or that outlive their caller (a transaction's commit messages to its
 * secondaries), outside the gRPC context of the thread that happens to send them. A call
 * started inside a context ends when that context is cancelled: on a server, the context of a
 * request whose own client left; in the client, the context of the call whose callback sends the
 * next batch. Cancelling one caller must not cancel the others' requests. The calls carry deadlines
 * of their own.
 */
final class DetachedCalls {
  private DetachedCalls() {}

  /** Runs {@code start} (which starts a call, or makes a blocking one) in the root context. */
  static <T> T start(Supplier<T> start) {
    Context previous = Context.ROOT.attach();
    try {
      return start.get();
    } finally {
      Context.ROOT.detach(previous);
    }
  }
}
