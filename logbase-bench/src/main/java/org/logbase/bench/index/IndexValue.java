package org.logbase.bench.index;

/** Skip-list value of the baseline index: what the B-link tree packs into two arrays. */
final class IndexValue {

  final long pointer;
  final int meta;

  IndexValue(long pointer, int meta) {
    this.pointer = pointer;
    this.meta = meta;
  }
}
