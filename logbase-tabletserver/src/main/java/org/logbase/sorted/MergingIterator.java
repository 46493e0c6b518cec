package org.logbase.sorted;

import java.io.IOException;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import org.logbase.common.Closeables;

/**
 * Merges layers (an in-memory index and sorted segments, newest layer first) into one iterator in
 * entry order. Where several layers hold the same (row key, timestamp), the newest layer's entry is
 * returned and the others are skipped. What a reader may see of the merged versions (snapshots,
 * tombstones) is its caller's business.
 *
 * <p>A layer's next entry is looked at (and its block read) only before the merge returns an
 * entry, so a failing layer leaves the merge where it was. Closing it closes every layer.
 */
public final class MergingIterator implements EntryIterator {
  /** A layer and its next entry, ordered by that entry, then by layer (newest first). */
  private record Head(SortedEntry entry, int layer) {}

  private static final Comparator<Head> HEAD_ORDER =
      Comparator.<Head, SortedEntry>comparing(Head::entry, SortedEntry.ORDER).thenComparingInt(Head::layer);

  private final List<EntryIterator> layers;
  /** The next entry of each layer not in {@link #pending}. */
  private final PriorityQueue<Head> heads = new PriorityQueue<>(HEAD_ORDER);
  /** Layers whose next entry is not looked at yet: done before an entry is returned. */
  private final Set<Integer> pending = new TreeSet<>();

  /** @param newestFirst the layers; where they hold the same version, an earlier one wins */
  public MergingIterator(List<? extends EntryIterator> newestFirst) {
    this.layers = List.copyOf(newestFirst);
    allPending();
  }

  private void allPending() {
    for (int i = 0; i < layers.size(); i++) {
      pending.add(i);
    }
  }

  @Override
  public void seek(byte[] rowKey, long timestamp) throws IOException {
    heads.clear();
    pending.clear();
    for (EntryIterator layer : layers) {
      layer.seek(rowKey, timestamp);
    }
    allPending();
  }

  /** Looks at the next entry of each pending layer; a layer that fails stays pending. */
  private void refill() throws IOException {
    for (Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
      int i = it.next();
      EntryIterator layer = layers.get(i);
      if (layer.hasNext()) {
        heads.add(new Head(layer.peek(), i));
      }
      it.remove();
    }
  }

  @Override
  public boolean hasNext() throws IOException {
    refill();
    return !heads.isEmpty();
  }

  @Override
  public SortedEntry peek() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return heads.peek().entry();
  }

  @Override
  public SortedEntry next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Head head = take();
    while (!heads.isEmpty() && SortedEntry.ORDER.compare(heads.peek().entry(), head.entry()) == 0) {
      take(); // the same version in an older layer
    }
    return head.entry();
  }

  /** Moves the first layer past its entry, which it had returned by peek already (no I/O). */
  private Head take() throws IOException {
    Head head = heads.poll();
    layers.get(head.layer()).next();
    pending.add(head.layer());
    return head;
  }

  @Override
  public void close() throws IOException {
    Closeables.closeAll(layers);
  }
}
