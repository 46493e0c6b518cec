package org.logbase.client;

import io.grpc.StatusRuntimeException;
import org.logbase.common.LogBaseException;
import org.logbase.common.LogUnavailableException;
import org.logbase.common.ServerBusyException;
import org.logbase.common.StorageUnavailableException;
import org.logbase.common.rpc.RpcErrors;

/** Turns a failed call into the caller's typed exception, letting the caller forget stale routing first. */
final class Rpcs {
  private Rpcs() {}

  /**
   * The typed exception for {@code e}; runs {@code forgetRoute} when the failure means the request
   * went to the wrong or a dead server, so that the retry looks the route up again. A busy server
   * ({@link ServerBusyException}) and one whose log or file system fails for the moment
   * ({@link LogUnavailableException}, {@link StorageUnavailableException}) are the right ones:
   * their routes are kept, so that clients waiting for them do not ask the master for locations on
   * every retry.
   */
  static LogBaseException failure(StatusRuntimeException e, String what, Runnable forgetRoute) {
    LogBaseException ex = RpcErrors.fromStatus(e, what);
    boolean rightServer = ex instanceof ServerBusyException || ex instanceof LogUnavailableException
        || ex instanceof StorageUnavailableException;
    if (RpcErrors.isRetriable(ex) && !rightServer) {
      forgetRoute.run();
    }
    return ex;
  }
}
