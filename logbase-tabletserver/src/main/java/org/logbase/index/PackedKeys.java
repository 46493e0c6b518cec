package org.logbase.index;

/**
 * A node's keys in packed form, as passed to a {@link NodeContents} constructor: all key bytes
 * concatenated, plus either the exclusive end offset of every key or, when all keys have the
 * same length (fixed-length row keys are the common case), just that width, which saves four
 * bytes per entry and an array read per comparison.
 *
 * @param bytes the concatenated key bytes
 * @param ends exclusive end offset of each key, or null if every key is {@code width} bytes
 * @param width the common key length when {@code ends} is null, otherwise unused
 */
record PackedKeys(byte[] bytes, int[] ends, int width) {

  static PackedKeys fixed(byte[] bytes, int width) {
    return new PackedKeys(bytes, null, width);
  }

  /** Packs with end offsets, dropping them if the keys turn out to have one common length. */
  static PackedKeys of(byte[] bytes, int[] ends) {
    int width = ends.length == 0 ? 0 : ends[0];
    for (int i = 1; i < ends.length; i++) {
      if (ends[i] - ends[i - 1] != width) {
        return new PackedKeys(bytes, ends, 0);
      }
    }
    return fixed(bytes, width);
  }
}
