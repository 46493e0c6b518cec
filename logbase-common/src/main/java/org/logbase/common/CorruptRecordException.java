package org.logbase.common;

/** Bytes read from the log failed their checksum or do not parse: reported, never served as data. */
public class CorruptRecordException extends LogBaseException {
  private static final long serialVersionUID = 1L;

  public CorruptRecordException(String message) {
    super(message);
  }
}
