package org.logbase.bench.compaction;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.SplittableRandom;
import org.logbase.bench.engine.KvRows;

/**
 * The compaction benchmark's rows, numbered 0, 1, 2, ...: keys as the engine benchmarks make them
 * (16 bytes, scattered over the key space), incompressible values that differ per version, and
 * compressible prose.
 */
final class CompactionRows {
  static final int KEY_BYTES = KvRows.key(0).length;

  private static final String[] WORDS = {
    "the", "log", "is", "the", "only", "copy", "of", "the", "data", "and", "every", "write", "goes", "to", "its",
    "end", "a", "tablet", "server", "keeps", "an", "index", "in", "memory", "that", "points", "into", "it", "while",
    "compaction", "rewrites", "old", "versions", "into", "sorted", "segments", "so", "that", "range", "scans",
    "read", "blocks", "in", "key", "order", "instead", "of", "one", "record", "at", "a", "time", "readers",
    "never", "wait", "for", "writers", "because", "snapshots", "are", "immutable", "timestamps", "decide",
    "which", "version", "a", "transaction", "sees", "when", "the", "horizon", "moves", "forward", "garbage",
    "disappears", "quietly", "cluster", "master", "balances", "load", "across", "servers", "after", "failures",
    "with", "little", "pause", "blocks", "are", "checksummed", "compressed", "cached", "and", "verified"
  };

  private final int valueBytes;

  CompactionRows(int valueBytes) {
    if (valueBytes < 12) {
      throw new IllegalArgumentException("values need at least 12 bytes (they carry their row and version)");
    }
    this.valueBytes = valueBytes;
  }

  int valueBytes() {
    return valueBytes;
  }

  static byte[] key(long row) {
    return KvRows.key(row);
  }

  /**
   * Version {@code version} of row {@code row}: random bytes of its own (seeded by the row and
   * version, so a read can be checked), the row and version in the first 12. Values drawn from a
   * small pool instead repeat within a block once a table has enough rows, and LZ4 then shrinks
   * blocks that were meant to be incompressible.
   */
  byte[] value(long row, int version) {
    byte[] v = new byte[valueBytes];
    new SplittableRandom((row * 31 + version) * 0x9E3779B97F4A7C15L).nextBytes(v);
    ByteBuffer.wrap(v).putLong(0, row).putInt(8, version);
    return v;
  }

  /** The row and version a value made by {@link #value} carries. */
  static String describe(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    return "row " + b.getLong(0) + " version " + b.getInt(8);
  }

  /** English-looking prose of exactly the value size: sentences drawn from a fixed word list, seeded by the row. */
  byte[] prose(long row) {
    Random rnd = new Random(7_000_000_000L + row);
    StringBuilder sb = new StringBuilder(valueBytes + 128);
    while (sb.length() < valueBytes) {
      int words = 6 + rnd.nextInt(12);
      for (int w = 0; w < words; w++) {
        String word = WORDS[rnd.nextInt(WORDS.length)];
        if (w == 0) {
          sb.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
        } else {
          sb.append(rnd.nextInt(10) == 0 ? ", " : " ").append(word);
        }
      }
      sb.append(". ");
    }
    return sb.substring(0, valueBytes).getBytes(StandardCharsets.US_ASCII);
  }
}
