package org.logbase.shell;

import io.grpc.StatusRuntimeException;
import org.logbase.client.ZooKeeperUnreachableException;
import org.logbase.common.LogBaseException;
import org.logbase.common.rpc.RpcErrors;

/** Turns any failure into what the shell's one line {@code ERROR: <what went wrong>} says. */
final class ErrorLines {
  private ErrorLines() {}

  static String message(Throwable t) {
    if (t instanceof ZooKeeperUnreachableException) {
      return t.getMessage() + ". Is the cluster running? Start one with bin/logbase demo, bin/start-cluster.sh or"
          + " bin/logbase standalone, or give its ZooKeeper with --zookeeper HOST:PORT";
    }
    if (t instanceof StatusRuntimeException s) {
      return RpcErrors.fromStatus(s, "request").getMessage();
    }
    boolean userFacing = t instanceof LogBaseException || t instanceof ShellException
        || t instanceof IllegalArgumentException || t instanceof IllegalStateException
        || t instanceof UnsupportedOperationException;
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      return t.getClass().getSimpleName();
    }
    return userFacing ? m : t.getClass().getSimpleName() + ": " + m;
  }
}
