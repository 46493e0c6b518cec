package org.logbase.sorted;

import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;

/** An in-memory layer for merge tests: an {@link EntryIterator} over a list in entry order. */
final class ListEntryIterator implements EntryIterator {
  private final List<SortedEntry> entries;
  private int pos;

  ListEntryIterator(List<SortedEntry> sorted) {
    this.entries = List.copyOf(sorted);
  }

  @Override
  public void seek(byte[] rowKey, long timestamp) {
    int i = Collections.binarySearch(entries, SortedEntry.tombstone(rowKey, timestamp), SortedEntry.ORDER);
    pos = i >= 0 ? i : -i - 1;
  }

  @Override
  public boolean hasNext() {
    return pos < entries.size();
  }

  @Override
  public SortedEntry peek() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return entries.get(pos);
  }

  @Override
  public SortedEntry next() {
    SortedEntry e = peek();
    pos++;
    return e;
  }

  @Override
  public void close() {}
}
