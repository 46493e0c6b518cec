package org.logbase.tabletserver.server;

import java.io.EOFException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.CannotObtainBlockLengthException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.ipc.StandbyException;
import org.logbase.common.CorruptRecordException;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.StorageUnavailableException;
import org.logbase.manifest.ManifestFencedException;
import org.logbase.sorted.SegmentDamageException;

/**
 * What a failed file-system call means to the caller of a request. Only failures that say "not
 * now" become {@link StorageUnavailableException} (retriable): a NameNode or DataNode not reached,
 * timing out or dropping the connection (also in the middle of a call), a block no DataNode serves at the moment, a NameNode in safe mode or standby. Damage
 * (a sorted segment failing its checks, HDFS checksums failing) becomes
 * {@link CorruptRecordException}: retrying it cannot help. A tablet's manifest written by another
 * server since this one read it ({@link ManifestFencedException}: the tablet was taken over while
 * this server was cut off) becomes {@link NotServingTabletException}: the tablet is no longer this
 * server's, and a caller asks where it is now. Anything else (a file missing where the
 * server expected it, a tablet opened that was split, file ids used up) stays what it is, the
 * server's own error, reported as internal.
 */
final class StorageFailures {
  /** Hadoop exceptions that mean "not now", thrown here or sent by the NameNode. */
  private static final Set<String> TRANSIENT = Set.of(BlockMissingException.class.getName(),
      CannotObtainBlockLengthException.class.getName(), RetriableException.class.getName(),
      StandbyException.class.getName(), "org.apache.hadoop.hdfs.server.namenode.SafeModeException",
      "org.apache.hadoop.ipc.ServerNotRunningYetException");
  /** Hadoop's RPC client, and its inner classes (the connection that reads responses). */
  private static final String RPC_CLIENT = "org.apache.hadoop.ipc.Client";
  /** Causes looked at, at most: a chain is finite, but not always acyclic. */
  private static final int MAX_DEPTH = 16;

  private StorageFailures() {}

  /** {@code t} as the caller should see it: typed if it is the storage failing, else unchanged. */
  static Throwable forCaller(Throwable t) {
    if (t instanceof LogBaseException) {
      return t;
    }
    Throwable c = t;
    for (int depth = 0; c != null && depth < MAX_DEPTH; depth++, c = c.getCause()) {
      if (c instanceof LogBaseException typed) {
        return typed;
      } else if (c instanceof ManifestFencedException) {
        String why = "this server no longer serves the tablet: " + c.getMessage();
        return withCause(new NotServingTabletException(why), t);
      } else if (c instanceof SegmentDamageException || c instanceof ChecksumException) {
        return withCause(new CorruptRecordException("damaged data: " + c.getMessage()), t);
      } else if (isTransient(c)) {
        return withCause(new StorageUnavailableException(t.getMessage()), t);
      }
    }
    return t;
  }

  private static boolean isTransient(Throwable c) {
    // SocketException: refused, reset, no route (a NameNode or DataNode killed or restarting).
    return c instanceof SocketException || c instanceof SocketTimeoutException
        || TRANSIENT.contains(c.getClass().getName())
        || (c instanceof RemoteException r && TRANSIENT.contains(r.getClassName()))
        || (c instanceof EOFException && raisedByRpcClient(c));
  }

  /**
   * Whether {@code c} was raised by Hadoop's RPC client: an end of file there is the NameNode
   * closing the connection in the middle of a call (killed, or stopping), while one raised reading
   * a file means the file is shorter than it should be, which waiting does not mend.
   */
  private static boolean raisedByRpcClient(Throwable c) {
    for (StackTraceElement frame : c.getStackTrace()) {
      String name = frame.getClassName();
      if (name.equals(RPC_CLIENT) || name.startsWith(RPC_CLIENT + "$")) {
        return true;
      }
    }
    return false;
  }

  private static LogBaseException withCause(LogBaseException e, Throwable cause) {
    e.initCause(cause);
    return e;
  }
}
