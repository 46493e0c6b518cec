package org.logbase.bench.index;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.logbase.index.MultiVersionIndex;

/**
 * Deterministic random entries (16-byte keys, non-negative timestamps, random values),
 * regenerated from a seed instead of being stored so they stay out of heap measurements.
 */
final class RandomEntries {

  static final int KEY_LENGTH = 16;

  private final SplittableRandom random;

  RandomEntries(long seed) {
    this.random = new SplittableRandom(seed);
  }

  byte[] nextKey() {
    byte[] key = new byte[KEY_LENGTH];
    for (int i = 0; i < KEY_LENGTH; i += 8) {
      long bits = random.nextLong();
      for (int j = 0; j < 8; j++) {
        key[i + j] = (byte) (bits >>> (8 * j));
      }
    }
    return key;
  }

  long nextTimestamp() {
    return random.nextLong(Long.MAX_VALUE);
  }

  int nextIndex(int bound) {
    return random.nextInt(bound);
  }

  long nextPointer() {
    return random.nextLong();
  }

  int nextMeta() {
    return random.nextInt();
  }

  /** Puts the next {@code count} random entries into {@code index}. */
  void putInto(MultiVersionIndex index, long count) {
    for (long i = 0; i < count; i++) {
      index.put(nextKey(), nextTimestamp(), nextPointer(), nextMeta());
    }
  }

  /** The next {@code count} keys, for benchmarks that look them up again. */
  byte[][] keys(int count) {
    byte[][] keys = new byte[count][];
    Arrays.setAll(keys, i -> nextKey());
    return keys;
  }
}
