package org.logbase.sorted;

import java.util.Arrays;
import org.apache.hadoop.util.hash.Hash;
import org.apache.hadoop.util.hash.MurmurHash;

/**
 * A Bloom filter over the distinct row keys of a sorted segment (format version 1). A key sets
 * {@code k} bits chosen by double hashing (Kirsch and Mitzenmacher): bit {@code (h1 + i * h2) mod m}
 * for {@code i} in {@code 0..k-1}, where {@code h1} and {@code h2} are 32-bit MurmurHash2 values
 * (Hadoop's {@link MurmurHash}) of the key with seeds {@value #SEED1} and {@value #SEED2}, taken as
 * unsigned. Stored as {@code hashCount:u8} followed by the {@code m / 8} bytes of the bit array,
 * bit {@code j} being bit {@code j % 8} (least significant first) of byte {@code j / 8}.
 */
final class BloomFilter {
  static final int SEED1 = 0;
  static final int SEED2 = 0x5EED;
  static final int MAX_HASHES = 30;
  /** The smallest bit array: an empty or tiny segment still gets one. */
  static final int MIN_BITS = 64;
  private static final Hash MURMUR = MurmurHash.getInstance();

  private final int hashCount;
  private final byte[] bits;
  private final long bitCount;

  private BloomFilter(int hashCount, byte[] bits) {
    this.hashCount = hashCount;
    this.bits = bits;
    this.bitCount = 8L * bits.length;
  }

  /**
   * Reads a stored filter.
   *
   * @throws IllegalArgumentException if it cannot be a filter of this format
   */
  static BloomFilter decode(byte[] stored) {
    if (stored.length < 1 + MIN_BITS / 8 || stored[0] < 1 || stored[0] > MAX_HASHES) {
      throw new IllegalArgumentException("not a Bloom filter: " + stored.length + " bytes");
    }
    return new BloomFilter(stored[0], Arrays.copyOfRange(stored, 1, stored.length));
  }

  byte[] encode() {
    byte[] out = new byte[1 + bits.length];
    out[0] = (byte) hashCount;
    System.arraycopy(bits, 0, out, 1, bits.length);
    return out;
  }

  /** False only if the key was not added. */
  boolean mightContain(byte[] key) {
    long h1 = hash1(key);
    long h2 = hash2(key);
    for (int i = 0; i < hashCount; i++) {
      long bit = (h1 + i * h2) % bitCount;
      if ((bits[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
        return false;
      }
    }
    return true;
  }

  int hashCount() {
    return hashCount;
  }

  private static long hash1(byte[] key) {
    return Integer.toUnsignedLong(MURMUR.hash(key, key.length, SEED1));
  }

  private static long hash2(byte[] key) {
    return Integer.toUnsignedLong(MURMUR.hash(key, key.length, SEED2));
  }

  /** Collects the keys' hashes while a segment is written; sizes the filter at the end. */
  static final class Builder {
    private long[] hashes = new long[1024];
    private int count;

    void add(byte[] key) {
      if (count == hashes.length) {
        hashes = Arrays.copyOf(hashes, count * 2);
      }
      hashes[count++] = hash1(key) << 32 | hash2(key);
    }

    /** {@code bitsPerKey} bits for each key added, rounded up to whole bytes, at least {@value #MIN_BITS}. */
    BloomFilter build(int bitsPerKey) {
      long m = Math.max(MIN_BITS, (long) count * bitsPerKey);
      long bytes = (m + 7) / 8;
      if (bytes > Integer.MAX_VALUE - 1) {
        throw new IllegalStateException("Bloom filter of " + count + " keys is too large");
      }
      int k = (int) Math.max(1, Math.min(MAX_HASHES, Math.round(bitsPerKey * Math.log(2))));
      BloomFilter f = new BloomFilter(k, new byte[(int) bytes]);
      for (int j = 0; j < count; j++) {
        f.set(hashes[j] >>> 32, hashes[j] & 0xFFFFFFFFL);
      }
      return f;
    }
  }

  private void set(long h1, long h2) {
    for (int i = 0; i < hashCount; i++) {
      long bit = (h1 + i * h2) % bitCount;
      bits[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
    }
  }
}
