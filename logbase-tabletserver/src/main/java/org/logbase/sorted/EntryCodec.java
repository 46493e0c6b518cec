package org.logbase.sorted;

import static org.logbase.log.RecordCodec.columnNames;
import static org.logbase.log.RecordCodec.columnsSize;
import static org.logbase.log.RecordCodec.getBytes;
import static org.logbase.log.RecordCodec.getColumnViews;
import static org.logbase.log.RecordCodec.getColumns;
import static org.logbase.log.RecordCodec.getVarint;
import static org.logbase.log.RecordCodec.putBytes;
import static org.logbase.log.RecordCodec.putColumns;
import static org.logbase.log.RecordCodec.varintSize;

import java.nio.ByteBuffer;
import java.util.List;
import org.logbase.common.Loan;
import org.logbase.log.ColumnNames;
import org.logbase.log.LogRecord.Column;
import org.logbase.log.RecordType;

/**
 * One entry in a data block of format version 1: {@code keyLength:varint key timestamp:i64 kind:u8}
 * (the log's record type code: 1 DATA, 2 TOMBSTONE; plus {@code 0x80} when a transaction id
 * follows), then {@code txnId:i64} if flagged, and, for DATA, the columns as a log record body holds
 * them ({@link org.logbase.log.RecordCodec#putColumns}).
 */
final class EntryCodec {
  /** Bytes after the key: timestamp and kind. */
  static final int FIXED_BYTES = 8 + 1;
  /** Set in the kind byte when a transaction id follows it. */
  private static final int HAS_TXN = 0x80;

  private EntryCodec() {}

  static byte[] encode(SortedEntry e) {
    byte[] key = e.rowKey();
    byte[][] names = columnNames(e.columns());
    int size = varintSize(key.length) + key.length + FIXED_BYTES + (e.txnId() != 0 ? 8 : 0);
    if (!e.isTombstone()) {
      size += columnsSize(names, e.columns());
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    putBytes(b, key);
    b.putLong(e.timestamp()).put((byte) (e.kind().code() | (e.txnId() != 0 ? HAS_TXN : 0)));
    if (e.txnId() != 0) {
      b.putLong(e.txnId());
    }
    if (!e.isTombstone()) {
      putColumns(b, names, e.columns());
    }
    return b.array();
  }

  /**
   * Decodes the entry at the buffer's position and moves past it.
   *
   * @throws IllegalStateException if it does not parse
   */
  static SortedEntry decode(ByteBuffer b) {
    return decode(b, null);
  }

  /**
   * The same, with column names decoded through {@code names} (null: each anew).
   *
   * @throws IllegalStateException if it does not parse
   */
  static SortedEntry decode(ByteBuffer b, ColumnNames names) {
    return decode(b, names, false, null);
  }

  /**
   * The same, each value a view of the buffer's array ({@link Column#view}) readable while {@code
   * loan} runs (null: always), instead of a copy.
   *
   * @throws IllegalStateException if it does not parse
   */
  static SortedEntry decodeViews(ByteBuffer b, ColumnNames names, Loan loan) {
    return decode(b, names, true, loan);
  }

  private static SortedEntry decode(ByteBuffer b, ColumnNames names, boolean views, Loan loan) {
    byte[] key = getBytes(b);
    long ts = b.getLong();
    byte k = b.get();
    RecordType kind = kind(k);
    long txnId = (k & HAS_TXN) != 0 ? b.getLong() : 0;
    List<Column> columns = kind != RecordType.DATA ? List.of()
        : views ? getColumnViews(b, getVarint(b), names, loan) : getColumns(b, getVarint(b), names);
    return new SortedEntry(key, ts, kind, txnId, columns);
  }

  /**
   * Moves past the key of the entry at the buffer's position; returns where the key's bytes begin
   * (they end at the buffer's new position).
   *
   * @throws IllegalStateException if it does not parse
   */
  static int skipKey(ByteBuffer b) {
    return skipBytes(b);
  }

  /**
   * Moves past the rest of an entry after its key (timestamp, kind, transaction id, columns) without
   * decoding its columns.
   *
   * @throws IllegalStateException if it does not parse
   */
  static void skipAfterKey(ByteBuffer b) {
    b.getLong();
    byte k = b.get();
    if ((k & HAS_TXN) != 0) {
      b.getLong();
    }
    if (kind(k) == RecordType.DATA) {
      int n = getVarint(b);
      for (int i = 0; i < 2 * n; i++) { // a name, then a value
        skipBytes(b);
      }
    }
  }

  private static RecordType kind(byte code) {
    RecordType kind = RecordType.fromCode((byte) (code & ~HAS_TXN));
    if (kind == null || !kind.isRowVersion()) {
      throw new IllegalStateException("unknown entry kind " + code);
    }
    return kind;
  }

  /** Moves past a length-prefixed byte string; returns where its bytes begin. */
  private static int skipBytes(ByteBuffer b) {
    int n = getVarint(b);
    if (n < 0 || n > b.remaining()) {
      throw new IllegalStateException("length " + n + " beyond the block");
    }
    int from = b.position();
    b.position(from + n);
    return from;
  }
}
