package org.logbase.common.rpc;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.channels.ClosedChannelException;
import org.logbase.common.Echo;
import org.logbase.common.ErrorCode;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerBusyException;
import org.logbase.common.ServerUnresponsiveException;
import org.logbase.common.ValueTooLargeException;

/** Converts between LogBase exceptions and gRPC statuses carrying an {@link ErrorCode}. */
public final class RpcErrors {
  /** Trailer key naming the {@link ErrorCode} of a failed call. */
  public static final Metadata.Key<String> ERROR_CODE =
      Metadata.Key.of("logbase-error", Metadata.ASCII_STRING_MARSHALLER);

  private RpcErrors() {}

  /** The status a server returns for {@code t}. */
  public static StatusRuntimeException toStatus(Throwable t) {
    if (t instanceof StatusRuntimeException s) {
      return s;
    }
    ErrorCode code = ErrorCode.of(t);
    // Bounded: a status travels in a header, and a message may quote what the caller sent.
    String message = Echo.cut(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage(), Echo.MAX_MESSAGE);
    if (code == ErrorCode.INTERNAL) {
      message = "internal error: " + message;
    } else if (code == ErrorCode.STORAGE_UNAVAILABLE) {
      message = "the file system failed: " + message;
    }
    Metadata trailers = new Metadata();
    trailers.put(ERROR_CODE, code.name());
    return Status.fromCode(Status.Code.valueOf(code.grpcCode())).withDescription(message).withCause(t)
        .asRuntimeException(trailers);
  }

  /** How grpc-netty describes a call ended by the peer's RST_STREAM (HTTP/2 error CANCEL). */
  private static final String PEER_RESET = "RST_STREAM closed stream";

  /**
   * The exception a caller sees for a failed call: the server's typed error when it sent one, else
   * one that says what the transport reported.
   */
  public static LogBaseException fromStatus(StatusRuntimeException e, String what) {
    Status s = e.getStatus();
    Metadata trailers = e.getTrailers();
    String codeName = trailers == null ? null : trailers.get(ERROR_CODE);
    if (codeName != null) {
      try {
        LogBaseException ex = ErrorCode.valueOf(codeName).exception(s.getDescription());
        ex.initCause(e);
        return ex;
      } catch (IllegalArgumentException unknown) {
        // A newer server's code: fall through to the generic mapping.
      }
    }
    return switch (s.getCode()) {
      case RESOURCE_EXHAUSTED -> withCause(new ValueTooLargeException(
          what + ": the request or its answer exceeds the message size limit (" + s.getDescription() + ")"), e);
      case DEADLINE_EXCEEDED -> withCause(new LogBaseException(what + ": deadline exceeded"), e);
      case UNAVAILABLE -> withCause(new LogBaseException(what + ": server unavailable (" + s.getDescription() + ")"), e);
      case UNKNOWN -> withCause(new LogBaseException(what + (connectionLost(s)
          ? ": connection to the server closed (" : ": UNKNOWN (") + s.getDescription() + ")"), e);
      case CANCELLED -> withCause(new LogBaseException(what + (connectionLost(s)
          ? ": the server reset the call (" + s.getDescription() + ")" : ": cancelled")), e);
      default -> withCause(new LogBaseException(what + ": " + s.getCode() + " " + s.getDescription()), e);
    };
  }

  /**
   * Whether a failed call may succeed if sent again (to the same or a re-looked-up server). A lost
   * connection counts: the server may or may not have acted on the request, so callers that must
   * not repeat a request (transaction commit) treat this as "outcome unknown" instead.
   */
  public static boolean isRetriable(LogBaseException e) {
    return e instanceof NotServingTabletException
        || e instanceof NotActiveMasterException
        || e instanceof ServerUnresponsiveException
        || e instanceof ServerBusyException
        || (e.getCause() instanceof StatusRuntimeException s && connectionLost(s.getStatus()));
  }

  /** Whether {@code e} is a call that ran out of time (its deadline passed). */
  public static boolean isDeadlineExceeded(LogBaseException e) {
    return e.getCause() instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED;
  }

  /**
   * Whether the transport, not the server, ended the call. gRPC reports a request written to a
   * connection the peer had just closed (a server killed mid-call) as UNKNOWN with a
   * {@link ClosedChannelException} cause rather than UNAVAILABLE; the cause exists only on the
   * client side, so a server's own UNKNOWN never matches. A stream the server resets (a stopping
   * server's forced shutdown ends the calls still open after its grace period: a slow scan's) comes
   * as CANCELLED with grpc-netty's description of a reset received ({@link #PEER_RESET}); a call the
   * client cancelled itself carries the client's own description and does not match
   * (ServerStopMidCallTest).
   */
  private static boolean connectionLost(Status s) {
    return s.getCode() == Status.Code.UNAVAILABLE
        || (s.getCode() == Status.Code.UNKNOWN && s.getCause() instanceof ClosedChannelException)
        || (s.getCode() == Status.Code.CANCELLED && s.getDescription() != null
            && s.getDescription().startsWith(PEER_RESET));
  }

  private static LogBaseException withCause(LogBaseException e, Throwable cause) {
    e.initCause(cause);
    return e;
  }
}
