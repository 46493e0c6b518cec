package org.logbase.index;

import java.util.Arrays;

/** Leaf snapshot: the index entries themselves, values in parallel packed arrays. */
final class LeafContents extends NodeContents {

  private static final byte[] NO_BYTES = new byte[0];

  final long[] pointers;
  final int[] metas;

  LeafContents(PackedKeys keys, long[] timestamps, long[] pointers, int[] metas,
      byte[] highKey, long highTimestamp, Node right) {
    super(keys, timestamps, highKey, highTimestamp, right);
    this.pointers = pointers;
    this.metas = metas;
  }

  /** The single leaf of an empty tree. */
  static LeafContents empty() {
    return new LeafContents(PackedKeys.fixed(NO_BYTES, 0), new long[0], new long[0], new int[0], null, 0, null);
  }

  @Override
  int level() {
    return 0;
  }

  @Override
  int size() {
    return keyCount();
  }

  IndexEntry entryAt(int i) {
    return new IndexEntry(keyAt(i), timestamps[i], pointers[i], metas[i]);
  }

  /** A copy with entry {@code i}'s value replaced; shares the key arrays, which do not change. */
  LeafContents withValue(int i, long pointer, int meta) {
    return new LeafContents(keys(), timestamps,
        ArrayEdits.replace(pointers, i, pointer), ArrayEdits.replace(metas, i, meta),
        highKey, highTimestamp, right);
  }

  /** A copy with a new entry inserted at index {@code i}. */
  LeafContents withEntry(int i, byte[] key, long ts, long pointer, int meta) {
    return new LeafContents(keysWith(i, key),
        ArrayEdits.insert(timestamps, i, ts), ArrayEdits.insert(pointers, i, pointer),
        ArrayEdits.insert(metas, i, meta), highKey, highTimestamp, right);
  }

  @Override
  LeafContents upperHalf(int mid) {
    return slice(mid, keyCount(), highKey, highTimestamp, right);
  }

  @Override
  LeafContents lowerHalf(int mid, Node sibling) {
    return slice(0, mid, keyAt(mid), timestamps[mid], sibling);
  }

  @Override
  int separatorIndex(int mid) {
    return mid;
  }

  private LeafContents slice(int from, int to, byte[] high, long highTs, Node rightLink) {
    return new LeafContents(keysSlice(from, to), timestampsSlice(from, to),
        Arrays.copyOfRange(pointers, from, to), Arrays.copyOfRange(metas, from, to),
        high, highTs, rightLink);
  }
}
