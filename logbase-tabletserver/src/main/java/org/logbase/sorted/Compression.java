package org.logbase.sorted;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.IntFunction;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * How the blocks of a sorted segment are compressed, chosen per column group. LZ4 goes through
 * lz4-java (JNI where the platform has it, its safe Java code otherwise), Zstd through zstd-jni.
 * Decompression is bounded by the block's raw length from the (checksummed) block index and must
 * produce exactly that many bytes.
 */
public enum Compression {
  NONE(0) {
    @Override
    byte[] compress(byte[] raw) {
      return raw;
    }

    @Override
    byte[] decompress(byte[] stored, int storedLength, int rawLength, IntFunction<byte[]> arrays)
        throws IOException {
      if (storedLength != rawLength) {
        throw new IOException("stored " + storedLength + " bytes, index says " + rawLength);
      }
      return stored;
    }
  },

  LZ4(1) {
    @Override
    byte[] compress(byte[] raw) {
      LZ4Compressor c = Lz4.FACTORY.fastCompressor();
      byte[] out = new byte[c.maxCompressedLength(raw.length)];
      int n = c.compress(raw, 0, raw.length, out, 0, out.length);
      return Arrays.copyOf(out, n);
    }

    @Override
    byte[] decompress(byte[] stored, int storedLength, int rawLength, IntFunction<byte[]> arrays)
        throws IOException {
      LZ4SafeDecompressor d = Lz4.FACTORY.safeDecompressor();
      byte[] raw = arrays.apply(rawLength);
      int n;
      try {
        n = d.decompress(stored, 0, storedLength, raw, 0, rawLength);
      } catch (RuntimeException e) { // LZ4Exception: malformed input
        throw new IOException("LZ4 decompression failed", e);
      }
      return exactly(raw, n, rawLength);
    }
  },

  ZSTD(2) {
    @Override
    byte[] compress(byte[] raw) {
      byte[] out = new byte[(int) Zstd.compressBound(raw.length)];
      long n = Zstd.compressByteArray(out, 0, out.length, raw, 0, raw.length, ZSTD_LEVEL);
      if (Zstd.isError(n)) {
        throw new IllegalStateException("Zstd compression failed: " + Zstd.getErrorName(n));
      }
      return Arrays.copyOf(out, (int) n);
    }

    @Override
    byte[] decompress(byte[] stored, int storedLength, int rawLength, IntFunction<byte[]> arrays)
        throws IOException {
      byte[] raw = arrays.apply(rawLength);
      long n;
      try {
        n = Zstd.decompressByteArray(raw, 0, rawLength, stored, 0, storedLength);
      } catch (RuntimeException e) { // ZstdException: malformed input
        throw new IOException("Zstd decompression failed", e);
      }
      if (Zstd.isError(n)) {
        throw new IOException("Zstd decompression failed: " + Zstd.getErrorName(n));
      }
      return exactly(raw, n, rawLength);
    }
  };

  /** Zstd's own default level: about LZ4's speed class for reads, a better ratio for writes. */
  static final int ZSTD_LEVEL = 3;

  private final int code;

  Compression(int code) {
    this.code = code;
  }

  /** The byte that names this compression in a segment's header and block index. */
  public int code() {
    return code;
  }

  /** The compression a stored code names, or null if the code is unknown. */
  public static Compression fromCode(int code) {
    for (Compression c : values()) {
      if (c.code == code) {
        return c;
      }
    }
    return null;
  }

  /** The stored form of a block (may be longer than {@code raw}: the writer then stores it raw). */
  abstract byte[] compress(byte[] raw);

  /**
   * The raw block of a stored one, {@code stored[0, storedLength)}: the first {@code rawLength}
   * bytes of a new array ({@link #NONE} returns {@code stored} itself, which may be longer).
   *
   * @throws IOException if the stored bytes do not decompress to exactly {@code rawLength} bytes
   */
  final byte[] decompress(byte[] stored, int storedLength, int rawLength) throws IOException {
    return decompress(stored, storedLength, rawLength, byte[]::new);
  }

  /**
   * The same, decompressed into an array {@code arrays} gives for the raw length (one at least that
   * long: a scan's, reused); {@link #NONE} takes none.
   *
   * @throws IOException if the stored bytes do not decompress to exactly {@code rawLength} bytes
   *     (the array taken is then left to the collector)
   */
  abstract byte[] decompress(byte[] stored, int storedLength, int rawLength, IntFunction<byte[]> arrays)
      throws IOException;

  private static byte[] exactly(byte[] raw, long produced, int rawLength) throws IOException {
    if (produced != rawLength) {
      throw new IOException("decompressed to " + produced + " bytes, index says " + rawLength);
    }
    return raw;
  }

  /** Resolved on first use, so a segment without LZ4 never loads its native library. */
  private static final class Lz4 {
    static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
  }
}
