package org.logbase.common.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;
import org.logbase.common.ColumnNotInSchemaException;
import org.logbase.common.ErrorCode;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.StorageUnavailableException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.ValueTooLargeException;

class RpcErrorsTest {
  @Test
  void everyErrorCodeSurvivesTheTripAsItsOwnExceptionWithItsMessage() {
    for (ErrorCode code : ErrorCode.values()) {
      LogBaseException sent = code.exception("what happened: " + code);
      StatusRuntimeException wire = RpcErrors.toStatus(sent);
      assertEquals(code.grpcCode(), wire.getStatus().getCode().name());
      LogBaseException got = RpcErrors.fromStatus(wire, "call");
      assertEquals(sent.getClass(), got.getClass(), code.name());
      assertTrue(got.getMessage().contains("what happened: " + code), got.getMessage());
      assertEquals(code, ErrorCode.of(got));
    }
  }

  @Test
  void transportFailuresWithoutACodeStillReadWell() {
    LogBaseException big = RpcErrors.fromStatus(
        Status.RESOURCE_EXHAUSTED.withDescription("message larger than max").asRuntimeException(), "put");
    assertInstanceOf(ValueTooLargeException.class, big);
    LogBaseException down = RpcErrors.fromStatus(Status.UNAVAILABLE.asRuntimeException(), "get from table 't'");
    assertTrue(down.getMessage().startsWith("get from table 't': server unavailable"), down.getMessage());
    assertTrue(RpcErrors.isRetriable(down));
    assertTrue(RpcErrors.isRetriable(new NotServingTabletException("moved")));
    assertTrue(!RpcErrors.isRetriable(new TableNotFoundException("t")));
    assertInstanceOf(ColumnNotInSchemaException.class,
        RpcErrors.fromStatus(RpcErrors.toStatus(new ColumnNotInSchemaException("t", "c")), "put"));
  }

  @Test
  void aRequestWrittenToAConnectionThePeerClosedIsRetriableButAServersUnknownIsNot() {
    // What grpc-netty reports when the server process dies as the request is written.
    LogBaseException closed = RpcErrors.fromStatus(Status.UNKNOWN.withDescription("channel closed")
        .withCause(new ClosedChannelException()).asRuntimeException(), "create table 't'");
    assertTrue(closed.getMessage().contains("connection to the server closed"), closed.getMessage());
    assertTrue(RpcErrors.isRetriable(closed));
    // An UNKNOWN that came over the wire (an exception in a server's gRPC layer) carries no cause.
    LogBaseException serverSide = RpcErrors.fromStatus(Status.UNKNOWN.withDescription("boom").asRuntimeException(),
        "create table 't'");
    assertTrue(!RpcErrors.isRetriable(serverSide), serverSide.getMessage());
  }

  @Test
  void aFileSystemThatFailsForTheMomentIsUnavailableAndRetriableButAnyOtherIOExceptionIsTheServersError() {
    LogBaseException hdfsDown = RpcErrors.fromStatus(RpcErrors.toStatus(new StorageUnavailableException(
        "Call From vm/127.0.0.1 to localhost:8020 failed on connection exception")), "scan");
    assertInstanceOf(StorageUnavailableException.class, hdfsDown);
    assertTrue(hdfsDown.getMessage().startsWith("the file system failed: "), hdfsDown.getMessage());
    assertTrue(RpcErrors.isRetriable(hdfsDown));
    // Which file-system failures are "not now" is the tablet server's to say (StorageFailures).
    LogBaseException other = RpcErrors.fromStatus(RpcErrors.toStatus(new UncheckedIOException(
        new ConnectException("refused"))), "scan");
    assertEquals(ErrorCode.INTERNAL, ErrorCode.of(other));
    LogBaseException gone = RpcErrors.fromStatus(RpcErrors.toStatus(new FileNotFoundException("seg-7.log")), "scan");
    assertEquals(ErrorCode.INTERNAL, ErrorCode.of(gone));
    assertTrue(gone.getMessage().startsWith("internal error: "), gone.getMessage());
  }

  @Test
  void unexpectedServerExceptionsAreInternalErrors() {
    StatusRuntimeException wire = RpcErrors.toStatus(new NullPointerException("oops"));
    assertEquals(Status.Code.INTERNAL, wire.getStatus().getCode());
    assertTrue(RpcErrors.fromStatus(wire, "x").getMessage().contains("internal error"));
  }

  @Test
  void aLongMessageIsCutToABoundedStatus() {
    StatusRuntimeException s = RpcErrors.toStatus(new TableNotFoundException("table '" + "x".repeat(50_000) + "' does not exist"));
    String description = s.getStatus().getDescription();
    assertTrue(description.length() < 1100 && description.endsWith("(50023 characters)"), description);
    assertInstanceOf(TableNotFoundException.class, RpcErrors.fromStatus(s, "test"));
  }
}
