package org.logbase.chaos.check;

import java.util.List;

/**
 * What a history says about one key: who appended each value, and the version order its reads
 * reveal. Every committed read of a list-append key is a prefix of the key's final list, so the
 * longest committed read is the best-known version order and every other read must be a prefix of it.
 */
final class KeyOrder {
  final int id;
  final String key;
  /** Appended value to (writer's index in the history << 1) | 1 if the writer appended to the key again. */
  final LongIntMap writes = new LongIntMap();
  /** The longest list a committed transaction read: the version order. */
  List<Long> longest = List.of();
  int longestReader = -1;
  /** The committed read of the key invoked last, which must hold every write acknowledged before it. */
  List<Long> lastRead;
  int lastReader = -1;
  /** Value to its first index in {@link #longest}. */
  final LongIntMap position = new LongIntMap();
  /** Per index of {@link #longest}: the graph node (committed writer) that appended it, or -1. */
  int[] writerAt = new int[0];
  private LongIntMap reported;

  KeyOrder(int id, String key) {
    this.id = id;
    this.key = key;
  }

  /** The index in the history of the transaction that appended v, or -1 if none did. */
  int writer(long v) {
    int w = writes.get(v);
    return w < 0 ? -1 : w >>> 1;
  }

  /** Whether v's writer appended to this key again after v: then nobody else may see a list ending at v. */
  boolean intermediate(long v) {
    int w = writes.get(v);
    return w >= 0 && (w & 1) != 0;
  }

  /** The first index at which list departs from the version order, or -1 if it is a prefix of it. */
  int divergence(List<Long> list) {
    if (list == longest) {
      return -1;
    }
    int n = Math.min(list.size(), longest.size());
    for (int i = 0; i < n; i++) {
      if (list.get(i).longValue() != longest.get(i).longValue()) {
        return i;
      }
    }
    return list.size() <= longest.size() ? -1 : n;
  }

  /**
   * The next version after index p (-1: before the first value): the first later index appended by a
   * graph node other than the one that appended p. Consecutive values of one writer are one version.
   */
  int nextVersion(int p) {
    int self = p < 0 ? -1 : writerAt[p];
    for (int j = p + 1; j < writerAt.length; j++) {
      if (writerAt[j] >= 0 && writerAt[j] != self) {
        return j;
      }
    }
    return -1;
  }

  /** True the first time a value is flagged, so that a bad value read many times is reported once. */
  boolean firstReport(long v) {
    if (reported == null) {
      reported = new LongIntMap();
    }
    return reported.putIfAbsent(v, 0) < 0;
  }
}
