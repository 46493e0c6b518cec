package org.logbase.bench.engine;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.logbase.log.LogRecord;
import org.logbase.log.RecordCodec;
import org.logbase.common.Row;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.testing.TestTables;

/**
 * Rows of the benchmark table "kv" (one column "v"), numbered 0, 1, 2, ...
 *
 * <p>Keys are "row" plus 13 digits of a bijective scramble of the row number, so consecutive rows
 * land all over the key space (as with YCSB's hashed inserts) yet every key maps back to its row,
 * and all keys have the same length, so every record's frame has the same size. Values are random
 * bytes drawn from a fixed pool, with the row number in their first 8 bytes: distinct per row,
 * cheap to make, and recomputable to check what a read returned.
 */
public final class KvRows {
  static final String COLUMN = "v";
  static final TabletDescriptor TABLET = TestTables.whole(TestTables.KV);

  private static final int POOL = 4096;
  private static final long MASK = (1L << 40) - 1;
  private static final long SCRAMBLE = 0x9E3779B97FL | 1; // odd, so invertible modulo 2^40
  private static final long UNSCRAMBLE = inverse(SCRAMBLE);
  private static final int KEY_DIGITS = 13; // 2^40 - 1 has 13 decimal digits

  private final byte[][] pool;
  private final int valueBytes;

  KvRows(int valueBytes) {
    if (valueBytes < 8) {
      throw new IllegalArgumentException("values need at least 8 bytes (they carry their row number)");
    }
    this.valueBytes = valueBytes;
    this.pool = randomValues(POOL, valueBytes);
  }

  /** {@code count} arrays of {@code bytes} random bytes, the same every run: a cheap source of incompressible values. */
  public static byte[][] randomValues(int count, int bytes) {
    SplittableRandom rnd = new SplittableRandom(20120801);
    byte[][] values = new byte[count][bytes];
    for (byte[] v : values) {
      for (int i = 0; i < v.length; i++) {
        v[i] = (byte) rnd.nextInt(256);
      }
    }
    return values;
  }

  int valueBytes() {
    return valueBytes;
  }

  public static byte[] key(long row) {
    long v = (row * SCRAMBLE) & MASK;
    byte[] k = new byte[3 + KEY_DIGITS];
    k[0] = 'r';
    k[1] = 'o';
    k[2] = 'w';
    for (int i = k.length - 1; i >= 3; i--) {
      k[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return k;
  }

  /** The row number of a key made by {@link #key}. */
  static long rowOf(byte[] key) {
    long v = 0;
    for (int i = 3; i < key.length; i++) {
      v = v * 10 + (key[i] - '0');
    }
    return (v * UNSCRAMBLE) & MASK;
  }

  byte[] value(long row) {
    byte[] v = pool[(int) ((row * 0x9E3779B97F4A7C15L) >>> 52)].clone();
    ByteBuffer.wrap(v).putLong(0, row);
    return v;
  }

  Map<String, byte[]> columns(long row) {
    return Map.of(COLUMN, value(row));
  }

  /** Fails loudly unless {@code r} is row {@code row} as written. */
  void check(long row, Row r) {
    if (r == null) {
      throw new IllegalStateException("row " + row + " (key " + new String(key(row)) + ") is missing");
    }
    if (!Arrays.equals(r.value(COLUMN), value(row))) {
      throw new IllegalStateException("row " + row + " (key " + new String(key(row)) + ") has a wrong value");
    }
  }

  /** Fails loudly unless {@code rec} is row {@code row}'s record as written. */
  void check(long row, LogRecord rec) {
    if (!Arrays.equals(rec.key(), key(row)) || !Arrays.equals(rec.column(COLUMN), value(row))) {
      throw new IllegalStateException("the log record read for row " + row + " is another row's or damaged");
    }
  }

  /**
   * A sealed frame of exactly the size the engine writes for one put of a row: the same record
   * type, ids, key length and column, encoded by the engine's own codec.
   */
  byte[] sampleFrame() {
    LogRecord r = LogRecord.data(System.currentTimeMillis() << 16, 0, TestTables.KV.id(), TABLET.tabletId(), 0,
        key(0), List.of(new LogRecord.Column(COLUMN, value(0))));
    byte[] frame = RecordCodec.encode(r);
    RecordCodec.seal(frame, 1);
    return frame;
  }

  /** The multiplicative inverse of an odd number modulo 2^40 (Newton's iteration doubles the correct bits). */
  private static long inverse(long a) {
    long x = a; // correct to 3 bits for odd a
    for (int i = 0; i < 5; i++) {
      x *= 2 - a * x;
    }
    return x & MASK;
  }
}
