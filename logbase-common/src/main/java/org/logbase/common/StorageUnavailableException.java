package org.logbase.common;

/**
 * The server could not read or write its file system (HDFS's NameNode or DataNodes unreachable,
 * a block no DataNode could serve): the request failed there, and may succeed when sent again.
 * Not damage: a record that fails its checksum is a {@link CorruptRecordException}.
 */
public class StorageUnavailableException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  /** With a message as received from a server. */
  public StorageUnavailableException(String message) {
    super(message);
  }
}
