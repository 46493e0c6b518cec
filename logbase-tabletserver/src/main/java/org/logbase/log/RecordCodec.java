package org.logbase.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.logbase.common.CorruptRecordException;
import org.logbase.common.Loan;

/**
 * Encodes and decodes record frames (format version 1, docs/log-format.md):
 *
 * <pre>
 *   frame  = bodyLength:u32  crc:u32  body
 *   crc    = CRC32C(bodyLength bytes, body)
 *   body   = version:u8=1 type:u8 flags:u16 lsn:i64 timestamp:i64 txnId:i64
 *            tableId:i32 tabletId:i32 columnGroupId:i32
 *            keyLength:varint key columnCount:varint (nameLength:varint name valueLength:varint value)*
 * </pre>
 *
 * All integers big-endian. The CRC covers the length field too, so a damaged length is caught
 * rather than trusted.
 */
public final class RecordCodec {
  public static final byte FORMAT_VERSION = 1;
  public static final int FRAME_HEADER_BYTES = 8;
  static final int FIXED_BODY_BYTES = 1 + 1 + 2 + 8 + 8 + 8 + 4 + 4 + 4;
  /** Smallest possible frame: fixed fields, empty key (1 varint byte), no columns (1 varint byte). */
  public static final int MIN_FRAME_BYTES = FRAME_HEADER_BYTES + FIXED_BODY_BYTES + 2;
  private static final int LSN_OFFSET = FRAME_HEADER_BYTES + 4;

  private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private RecordCodec() {}

  /** Encodes a whole frame; the LSN and CRC are filled in later by {@link #seal}. */
  public static byte[] encode(LogRecord r) {
    byte[][] names = columnNames(r.columns());
    int bodyLength = FIXED_BODY_BYTES + varintSize(r.key().length) + r.key().length
        + columnsSize(names, r.columns());
    byte[] frame = new byte[FRAME_HEADER_BYTES + bodyLength];
    ByteBuffer b = ByteBuffer.wrap(frame);
    b.putInt(bodyLength).putInt(0);
    b.put(FORMAT_VERSION).put(r.type().code()).putShort((short) 0);
    b.putLong(r.lsn()).putLong(r.timestamp()).putLong(r.txnId());
    b.putInt(r.tableId()).putInt(r.tabletId()).putInt(r.columnGroupId());
    putBytes(b, r.key());
    putColumns(b, names, r.columns());
    return frame;
  }

  /** Writes the LSN into an encoded frame and computes its CRC; the frame is then final. */
  public static void seal(byte[] frame, long lsn) {
    // Array views, not ByteBuffer.wrap: this runs on the log writer thread for every record, and
    // the wrappers were a sizeable share of that thread's allocations.
    LONG_BE.set(frame, LSN_OFFSET, lsn);
    INT_BE.set(frame, 4, crc(frame, 0, frame.length));
  }

  /** Body length a frame header claims (unchecked). */
  public static int bodyLength(byte[] buf, int offset) {
    return ByteBuffer.wrap(buf).getInt(offset);
  }

  /** Whether the frame at {@code offset} (whole frame present in buf) has a valid CRC and version. */
  public static boolean isValid(byte[] buf, int offset, int frameLength) {
    int stored = ByteBuffer.wrap(buf).getInt(offset + 4);
    return stored == crc(buf, offset, frameLength) && buf[offset + FRAME_HEADER_BYTES] == FORMAT_VERSION;
  }

  /**
   * Decodes one frame, checking its CRC first.
   *
   * @throws CorruptRecordException if the checksum fails or the body does not parse; {@code where}
   *     names the place in the message (its toString is called only then)
   */
  public static LogRecord decode(byte[] buf, int offset, int frameLength, Object where) {
    if (frameLength < MIN_FRAME_BYTES || bodyLength(buf, offset) != frameLength - FRAME_HEADER_BYTES) {
      throw new CorruptRecordException("corrupt log record at " + where + ": bad frame length");
    }
    if (!isValid(buf, offset, frameLength)) {
      throw new CorruptRecordException("corrupt log record at " + where + ": CRC32C mismatch");
    }
    return decodeChecked(buf, offset, frameLength, where);
  }

  /** The fields a scan routes by, read from a checked frame without decoding its columns. */
  public record Header(RecordType type, long lsn, long timestamp, int tableId, byte[] key) {}

  /**
   * Reads a checked frame's header up to its key; null if it does not parse (the caller then decodes
   * it whole and reports why).
   */
  static Header peek(byte[] buf, int offset, int frameLength) {
    try {
      ByteBuffer b = ByteBuffer.wrap(buf, offset + FRAME_HEADER_BYTES, frameLength - FRAME_HEADER_BYTES);
      b.get();
      RecordType type = RecordType.fromCode(b.get());
      b.getShort();
      long lsn = b.getLong();
      long ts = b.getLong();
      b.getLong(); // transaction id
      int table = b.getInt();
      b.position(b.position() + 8); // tablet id, column group id
      return type == null ? null : new Header(type, lsn, ts, table, getBytes(b));
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Decodes a frame whose length and CRC the caller has checked already. */
  static LogRecord decodeChecked(byte[] buf, int offset, int frameLength, Object where) {
    try {
      ByteBuffer b = ByteBuffer.wrap(buf, offset + FRAME_HEADER_BYTES, frameLength - FRAME_HEADER_BYTES);
      b.get(); // version, checked above
      RecordType type = RecordType.fromCode(b.get());
      b.getShort();
      long lsn = b.getLong();
      long ts = b.getLong();
      long txn = b.getLong();
      int table = b.getInt();
      int tablet = b.getInt();
      int group = b.getInt();
      byte[] key = getBytes(b);
      int n = getVarint(b);
      if (type == null || n < 0 || n > b.remaining()) {
        throw new CorruptRecordException("corrupt log record at " + where + ": unknown type or column count");
      }
      List<LogRecord.Column> cols = getColumns(b, n);
      if (b.hasRemaining()) {
        throw new CorruptRecordException("corrupt log record at " + where + ": trailing bytes");
      }
      return new LogRecord(type, lsn, ts, txn, table, tablet, group, key, cols);
    } catch (RuntimeException e) {
      if (e instanceof CorruptRecordException) {
        throw e;
      }
      throw new CorruptRecordException("corrupt log record at " + where + ": " + e);
    }
  }

  static int crc(byte[] frame, int offset, int frameLength) {
    CRC32C c = new CRC32C();
    c.update(frame, offset, 4);
    c.update(frame, offset + FRAME_HEADER_BYTES, frameLength - FRAME_HEADER_BYTES);
    return (int) c.getValue();
  }

  /** The UTF-8 names of {@code columns}, encoded once for {@link #columnsSize} and {@link #putColumns}. */
  public static byte[][] columnNames(List<LogRecord.Column> columns) {
    byte[][] names = new byte[columns.size()][];
    for (int i = 0; i < names.length; i++) {
      names[i] = columns.get(i).name().getBytes(StandardCharsets.UTF_8);
    }
    return names;
  }

  /** Bytes {@link #putColumns} writes: the column count, then each name and value with its length. */
  public static int columnsSize(byte[][] names, List<LogRecord.Column> columns) {
    int size = varintSize(names.length);
    for (int i = 0; i < names.length; i++) {
      byte[] value = columns.get(i).value();
      size += varintSize(names[i].length) + names[i].length + varintSize(value.length) + value.length;
    }
    return size;
  }

  /**
   * Writes columns as a record body holds them: {@code columnCount:varint (nameLength:varint name
   * valueLength:varint value)*}; sorted segments store them the same way.
   */
  public static void putColumns(ByteBuffer b, byte[][] names, List<LogRecord.Column> columns) {
    putVarint(b, names.length);
    for (int i = 0; i < names.length; i++) {
      putBytes(b, names[i]);
      putBytes(b, columns.get(i).value());
    }
  }

  /**
   * Reads {@code count} columns written by {@link #putColumns} (after their count), as an
   * immutable list.
   *
   * @throws IllegalStateException if a length runs past the buffer
   */
  public static List<LogRecord.Column> getColumns(ByteBuffer b, int count) {
    return getColumns(b, count, null);
  }

  /**
   * The same, with names decoded through {@code names} (null: each name anew).
   *
   * @throws IllegalStateException if a length runs past the buffer
   */
  public static List<LogRecord.Column> getColumns(ByteBuffer b, int count, ColumnNames names) {
    LogRecord.Column[] cols = new LogRecord.Column[checkCount(b, count)];
    for (int i = 0; i < count; i++) {
      cols[i] = new LogRecord.Column(getName(b, names), getBytes(b));
    }
    return List.of(cols); // immutable: the records and entries that hold it need not copy it again
  }

  /**
   * The same, each value a view of the buffer's array ({@link LogRecord.Column#view}) instead of a
   * copy, readable while {@code loan} runs (null: always).
   *
   * @throws IllegalStateException if a length runs past the buffer
   * @throws UnsupportedOperationException if the buffer has no accessible array
   */
  public static List<LogRecord.Column> getColumnViews(ByteBuffer b, int count, ColumnNames names, Loan loan) {
    LogRecord.Column[] cols = new LogRecord.Column[checkCount(b, count)];
    byte[] array = b.array();
    for (int i = 0; i < count; i++) {
      String name = getName(b, names);
      int n = checkLength(b, getVarint(b));
      int from = b.position();
      b.position(from + n);
      cols[i] = LogRecord.Column.view(name, array, b.arrayOffset() + from, n, loan);
    }
    return List.of(cols);
  }

  private static int checkCount(ByteBuffer b, int count) {
    if (count < 0 || count > b.remaining()) {
      throw new IllegalStateException("column count " + count + " beyond the buffer");
    }
    return count;
  }

  private static String getName(ByteBuffer b, ColumnNames names) {
    return names != null ? names.decode(b, getVarint(b)) : new String(getBytes(b), StandardCharsets.UTF_8);
  }

  private static int checkLength(ByteBuffer b, int n) {
    if (n < 0 || n > b.remaining()) {
      throw new IllegalStateException("length " + n + " beyond the record");
    }
    return n;
  }

  /** Writes {@code v} preceded by its length as a varint. */
  public static void putBytes(ByteBuffer b, byte[] v) {
    putVarint(b, v.length);
    b.put(v);
  }

  /**
   * Reads bytes written by {@link #putBytes}.
   *
   * @throws IllegalStateException if the length runs past the buffer
   */
  public static byte[] getBytes(ByteBuffer b) {
    int n = checkLength(b, getVarint(b));
    if (b.hasArray()) { // a copy the JIT need not zero first
      int from = b.arrayOffset() + b.position();
      b.position(b.position() + n);
      return Arrays.copyOfRange(b.array(), from, from + n);
    }
    byte[] v = new byte[n];
    b.get(v);
    return v;
  }

  /** Bytes of {@code v} as an unsigned LEB128 varint. */
  public static int varintSize(int v) {
    int n = 1;
    while ((v & ~0x7f) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code v} as an unsigned LEB128 varint (7 bits a byte, low bits first). */
  public static void putVarint(ByteBuffer b, int v) {
    while ((v & ~0x7f) != 0) {
      b.put((byte) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    b.put((byte) v);
  }

  /**
   * Reads a varint written by {@link #putVarint}.
   *
   * @throws IllegalStateException if it is longer than five bytes
   */
  public static int getVarint(ByteBuffer b) {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte x = b.get();
      v |= (x & 0x7f) << shift;
      if (x >= 0) {
        return v;
      }
    }
    throw new IllegalStateException("varint too long");
  }
}
