package org.logbase.chaos.check;

/**
 * An open-addressing map from long to non-negative int: a history holds hundreds of thousands of
 * appended values, and boxed maps would cost several times the memory.
 */
final class LongIntMap {
  private long[] keys = new long[8];
  private int[] values = new int[8]; // the value + 1; 0 marks a free slot
  private int size;

  /** The value for key, or -1. */
  int get(long key) {
    for (int i = slot(key, keys.length); ; i = (i + 1) & (keys.length - 1)) {
      if (values[i] == 0) {
        return -1;
      }
      if (keys[i] == key) {
        return values[i] - 1;
      }
    }
  }

  /** Maps key to value unless it is mapped already; returns the value it had, or -1. */
  int putIfAbsent(long key, int value) {
    int old = get(key);
    if (old < 0) {
      put(key, value);
    }
    return old;
  }

  void put(long key, int value) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int i = slot(key, keys.length);
    while (values[i] != 0 && keys[i] != key) {
      i = (i + 1) & (keys.length - 1);
    }
    size += values[i] == 0 ? 1 : 0;
    keys[i] = key;
    values[i] = value + 1;
  }

  int capacity() {
    return keys.length;
  }

  /** The key in a slot (0 ≤ slot < capacity), meaningful when valueAt(slot) ≥ 0. */
  long keyAt(int slot) {
    return keys[slot];
  }

  /** The value in a slot, or -1 if the slot is free. */
  int valueAt(int slot) {
    return values[slot] - 1;
  }

  private static int slot(long key, int capacity) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 29)) & (capacity - 1);
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != 0) {
        put(oldKeys[i], oldValues[i] - 1);
      }
    }
  }
}
