package org.logbase.log;

/** What a log record is. Codes are part of the on-disk format: never renumber. */
public enum RecordType {
  /** Column values of one row in one column group. */
  DATA(1),
  /** Deletes the row in one column group as of the record's timestamp. */
  TOMBSTONE(2),
  /** A transaction's writes, prepared but not yet decided (two-phase commit). */
  PREPARE(3),
  /** Makes the DATA/TOMBSTONE/PREPARE records of its transaction visible. */
  COMMIT(4),
  /** Discards the records of its transaction. */
  ABORT(5);

  private final byte code;

  RecordType(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** Whether records of this type carry row data that an index may point at. */
  public boolean isRowVersion() {
    return this == DATA || this == TOMBSTONE;
  }

  public static RecordType fromCode(byte code) {
    for (RecordType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
