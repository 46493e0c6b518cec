package org.logbase.tabletserver.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.ConnectTimeoutException;
import org.junit.jupiter.api.Test;
import org.logbase.common.CorruptRecordException;
import org.logbase.common.ErrorCode;
import org.logbase.common.LogBaseException;
import org.logbase.common.StorageUnavailableException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.sorted.SegmentDamageException;

/** What a client sees when a request fails on the file system: retriable only when it is "not now". */
class StorageFailuresTest {

  @Test
  void aFileSystemNotReachedOrNotServingForTheMomentIsUnavailableAndRetriable() {
    for (Throwable t : new Throwable[] {
        new UncheckedIOException(new ConnectException("Call From vm/127.0.0.1 to 127.0.0.1:8020 failed: Connection refused")),
        new CompletionException(new ConnectTimeoutException("connect timed out")),
        new IOException("read failed", new BlockMissingException("seg-7", "Could not obtain block", 0)),
        new RemoteException("org.apache.hadoop.hdfs.server.namenode.SafeModeException", "Name node is in safe mode"),
        new RemoteException("org.apache.hadoop.ipc.StandbyException", "Operation category READ is not supported"),
        new RemoteException("org.apache.hadoop.ipc.ServerNotRunningYetException", "Server is not running yet"),
        new IOException("Failed on local exception", new SocketException("Connection reset"))}) {
      LogBaseException seen = seenByClient(t);
      assertInstanceOf(StorageUnavailableException.class, seen, t.toString());
      assertTrue(seen.getMessage().startsWith("the file system failed: "), seen.getMessage());
      assertTrue(RpcErrors.isRetriable(seen), t.toString());
    }
  }

  @Test
  void damageIsReportedAsDamageAndNotRetried() {
    LogBaseException seen = seenByClient(new UncheckedIOException(
        new SegmentDamageException(new Path("/logbase/sorted/12.sst"), 4096, "block checksum mismatch")));
    assertInstanceOf(CorruptRecordException.class, seen);
    assertTrue(seen.getMessage().contains("block checksum mismatch"), seen.getMessage());
    assertTrue(!RpcErrors.isRetriable(seen));
  }

  @Test
  void anyOtherFileSystemErrorIsTheServersOwnAndNotRetried() {
    for (Throwable t : new Throwable[] {
        new UncheckedIOException(new FileNotFoundException("/logbase/log/ts1/7.log")),
        new IOException("file id 9 is out of range (1..8): the cluster has used up its file ids"),
        new IOException("tablet t/3 was split into tablets [4, 5]; open those instead"),
        new RemoteException("org.apache.hadoop.security.AccessControlException", "Permission denied")}) {
      LogBaseException seen = seenByClient(t);
      assertEquals(ErrorCode.INTERNAL, ErrorCode.of(seen), t.toString());
      assertTrue(!RpcErrors.isRetriable(seen), t.toString());
    }
  }

  @Test
  void anExceptionAlreadyTypedIsKept() {
    LogBaseException typed = new CorruptRecordException("corrupt log record at 7@12: CRC32C mismatch");
    assertEquals(typed, StorageFailures.forCaller(new UncheckedIOException(new IOException(typed))));
  }

  /** Through the server's failure path ({@link Calls#fail}) and over the wire's status. */
  private static LogBaseException seenByClient(Throwable onServer) {
    AtomicReference<Throwable> sent = new AtomicReference<>();
    Calls.fail(new StreamObserver<Object>() {
      @Override
      public void onNext(Object value) {
        throw new AssertionError("a failure sends no answer");
      }

      @Override
      public void onError(Throwable t) {
        sent.set(t);
      }

      @Override
      public void onCompleted() {
        throw new AssertionError("a failure does not complete");
      }
    }, onServer);
    return RpcErrors.fromStatus((StatusRuntimeException) sent.get(), "get");
  }
}
