package org.logbase.index;

import java.util.Arrays;

/**
 * Copy-on-write edits of exactly sized arrays: every node snapshot owns arrays whose length is
 * its entry count, so an edit always produces a new array and never touches a published one.
 */
final class ArrayEdits {

  private ArrayEdits() {}

  static long[] insert(long[] a, int i, long value) {
    long[] b = new long[a.length + 1];
    System.arraycopy(a, 0, b, 0, i);
    b[i] = value;
    System.arraycopy(a, i, b, i + 1, a.length - i);
    return b;
  }

  static int[] insert(int[] a, int i, int value) {
    int[] b = new int[a.length + 1];
    System.arraycopy(a, 0, b, 0, i);
    b[i] = value;
    System.arraycopy(a, i, b, i + 1, a.length - i);
    return b;
  }

  static Node[] insert(Node[] a, int i, Node value) {
    Node[] b = new Node[a.length + 1];
    System.arraycopy(a, 0, b, 0, i);
    b[i] = value;
    System.arraycopy(a, i, b, i + 1, a.length - i);
    return b;
  }

  static long[] replace(long[] a, int i, long value) {
    long[] b = a.clone();
    b[i] = value;
    return b;
  }

  static int[] replace(int[] a, int i, int value) {
    int[] b = a.clone();
    b[i] = value;
    return b;
  }

  /** Key end offsets [from, to) rebased so that key {@code from} starts at offset 0. */
  static int[] rebasedEnds(int[] ends, int from, int to) {
    int base = from == 0 ? 0 : ends[from - 1];
    int[] b = Arrays.copyOfRange(ends, from, to);
    if (base != 0) {
      for (int i = 0; i < b.length; i++) {
        b[i] -= base;
      }
    }
    return b;
  }

  /** End offsets after inserting a key of {@code length} bytes at index {@code i}. */
  static int[] insertEnd(int[] ends, int i, int length) {
    int start = i == 0 ? 0 : ends[i - 1];
    int[] b = new int[ends.length + 1];
    System.arraycopy(ends, 0, b, 0, i);
    b[i] = start + length;
    for (int j = i; j < ends.length; j++) {
      b[j + 1] = ends[j] + length;
    }
    return b;
  }

  /** Packed key bytes after inserting {@code key} at byte offset {@code at}. */
  static byte[] insertBytes(byte[] bytes, int at, byte[] key) {
    byte[] b = new byte[bytes.length + key.length];
    System.arraycopy(bytes, 0, b, 0, at);
    System.arraycopy(key, 0, b, at, key.length);
    System.arraycopy(bytes, at, b, at + key.length, bytes.length - at);
    return b;
  }
}
