package org.logbase.common;

import java.util.function.Function;

/**
 * The errors a LogBase server reports, each tied to the exception a caller sees and to a gRPC status
 * code name (kept as a string so this enum does not need gRPC on its classpath).
 */
public enum ErrorCode {
  TABLE_NOT_FOUND("NOT_FOUND", TableNotFoundException::new),
  TABLE_EXISTS("ALREADY_EXISTS", TableExistsException::new),
  COLUMN_NOT_IN_SCHEMA("INVALID_ARGUMENT", ColumnNotInSchemaException::new),
  VALUE_TOO_LARGE("INVALID_ARGUMENT", ValueTooLargeException::new),
  KEY_OUT_OF_RANGE("INVALID_ARGUMENT", KeyOutOfRangeException::new),
  INVALID_REQUEST("INVALID_ARGUMENT", InvalidRequestException::new),
  NOT_SERVING_TABLET("FAILED_PRECONDITION", NotServingTabletException::new),
  SERVER_STOPPING("UNAVAILABLE", ServerStoppingException::new),
  NOT_ACTIVE_MASTER("UNAVAILABLE", NotActiveMasterException::new),
  LOG_UNAVAILABLE("UNAVAILABLE", LogUnavailableException::new),
  STORAGE_UNAVAILABLE("UNAVAILABLE", StorageUnavailableException::new),
  TIMESTAMPS_UNAVAILABLE("UNAVAILABLE", TimestampsUnavailableException::new),
  SERVER_BUSY("RESOURCE_EXHAUSTED", ServerBusyException::new),
  CORRUPT_RECORD("DATA_LOSS", CorruptRecordException::new),
  TXN_CONFLICT("ABORTED", TransactionConflictException::new),
  TXN_ABORTED("ABORTED", TransactionAbortedException::new),
  ROW_LOCKED("ABORTED", RowLockedException::new),
  SNAPSHOT_TOO_OLD("OUT_OF_RANGE", SnapshotTooOldException::new),
  OPERATION_FAILED("FAILED_PRECONDITION", OperationFailedException::new),
  INTERNAL("INTERNAL", LogBaseException::new);

  private final String grpcCode;
  private final Function<String, LogBaseException> factory;

  ErrorCode(String grpcCode, Function<String, LogBaseException> factory) {
    this.grpcCode = grpcCode;
    this.factory = factory;
  }

  /** The name of the io.grpc.Status.Code this error travels as. */
  public String grpcCode() {
    return grpcCode;
  }

  /** The exception a caller sees for this error. */
  public LogBaseException exception(String message) {
    return factory.apply(message);
  }

  /** The code of an exception thrown on a server. */
  public static ErrorCode of(Throwable t) {
    if (t instanceof TableNotFoundException) {
      return TABLE_NOT_FOUND;
    } else if (t instanceof TableExistsException) {
      return TABLE_EXISTS;
    } else if (t instanceof ColumnNotInSchemaException) {
      return COLUMN_NOT_IN_SCHEMA;
    } else if (t instanceof ValueTooLargeException) {
      return VALUE_TOO_LARGE;
    } else if (t instanceof KeyOutOfRangeException) {
      return KEY_OUT_OF_RANGE;
    } else if (t instanceof InvalidRequestException || t instanceof IllegalArgumentException) {
      return INVALID_REQUEST;
    } else if (t instanceof NotServingTabletException) {
      return NOT_SERVING_TABLET;
    } else if (t instanceof ServerStoppingException) {
      return SERVER_STOPPING;
    } else if (t instanceof NotActiveMasterException) {
      return NOT_ACTIVE_MASTER;
    } else if (t instanceof LogUnavailableException) {
      return LOG_UNAVAILABLE;
    } else if (t instanceof TimestampsUnavailableException) {
      return TIMESTAMPS_UNAVAILABLE;
    } else if (t instanceof ServerBusyException) {
      return SERVER_BUSY;
    } else if (t instanceof CorruptRecordException) {
      return CORRUPT_RECORD;
    } else if (t instanceof TransactionConflictException) {
      return TXN_CONFLICT;
    } else if (t instanceof TransactionAbortedException) {
      return TXN_ABORTED;
    } else if (t instanceof RowLockedException) {
      return ROW_LOCKED;
    } else if (t instanceof OperationFailedException) {
      return OPERATION_FAILED;
    } else if (t instanceof SnapshotTooOldException) {
      return SNAPSHOT_TOO_OLD;
    } else if (t instanceof StorageUnavailableException) {
      return STORAGE_UNAVAILABLE;
    }
    return INTERNAL;
  }
}
