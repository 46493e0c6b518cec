package org.logbase.bench.index;

import java.util.Arrays;

/**
 * Skip-list key of the baseline index: a row key and a timestamp, ordered like the B-link tree
 * (row unsigned lexicographic ascending, then timestamp descending).
 */
final class VersionedKey implements Comparable<VersionedKey> {

  final byte[] row;
  final long timestamp;

  VersionedKey(byte[] row, long timestamp) {
    this.row = row;
    this.timestamp = timestamp;
  }

  @Override
  public int compareTo(VersionedKey other) {
    int byRow = Arrays.compareUnsigned(row, other.row);
    return byRow != 0 ? byRow : Long.compare(other.timestamp, timestamp);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VersionedKey k && timestamp == k.timestamp && Arrays.equals(row, k.row);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(row) * 31 + Long.hashCode(timestamp);
  }
}
