package org.logbase.log;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes column names for one reader, giving back the {@code String} of a name it decoded
 * recently instead of a new one: the entries of a scan name the same few columns again and again,
 * and decoding each name anew was a tenth of a full scan's time. Not thread-safe: one per reader
 * (a scan's iterator).
 */
public final class ColumnNames {
  private static final int SLOTS = 16;

  private final byte[][] encoded = new byte[SLOTS][];
  private final String[] names = new String[SLOTS];
  private int nextSlot;

  /**
   * The name whose {@code n} UTF-8 bytes begin at the buffer's position; moves past them.
   *
   * @throws IllegalStateException if {@code n} runs past the buffer
   */
  String decode(ByteBuffer b, int n) {
    if (n < 0 || n > b.remaining()) {
      throw new IllegalStateException("length " + n + " beyond the record");
    }
    if (!b.hasArray()) {
      byte[] v = new byte[n];
      b.get(v);
      return new String(v, StandardCharsets.UTF_8);
    }
    byte[] a = b.array();
    int from = b.arrayOffset() + b.position();
    b.position(b.position() + n);
    for (int i = 0; i < SLOTS && encoded[i] != null; i++) { // slots fill in order
      if (Arrays.equals(encoded[i], 0, encoded[i].length, a, from, from + n)) {
        return names[i];
      }
    }
    String name = new String(a, from, n, StandardCharsets.UTF_8);
    encoded[nextSlot] = Arrays.copyOfRange(a, from, from + n);
    names[nextSlot] = name;
    nextSlot = (nextSlot + 1) % SLOTS;
    return name;
  }
}
