package org.logbase.tablet;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.index.MultiVersionIndex;

/**
 * The versions of one (tablet, column group): the multiversion index of what is not compacted yet
 * (entries pointing into logs), over the sorted segments compaction wrote (older versions, newest
 * segment first), with the GC horizon below which versions were dropped; and what checkpointing
 * needs to know: the LSN its checkpoint covered when it was loaded, and how many updates it took
 * since the last checkpoint.
 */
public final class GroupIndex {
  private final TabletDescriptor tablet;
  private final ColumnGroup group;
  private final MultiVersionIndex index;
  private final List<SortedSegment> segments;
  private final long gcHorizon;
  private final long loadedLsn;
  private final AtomicLong updatesSinceCheckpoint = new AtomicLong();
  private volatile long lastCheckpointNanos = System.nanoTime();

  /**
   * @param loadedLsn the checkpoint this index was loaded from covers every record up to this LSN;
   *     replay must not apply those again (0 if built from nothing)
   */
  public GroupIndex(TabletDescriptor tablet, ColumnGroup group, MultiVersionIndex index, long loadedLsn) {
    this(tablet, group, index, List.of(), 0, loadedLsn);
  }

  /**
   * @param segments sorted segments, newest first; every version in them is older (in the log) than
   *     every entry of {@code index}
   * @param gcHorizon versions a snapshot below it could read were dropped (0: none)
   */
  public GroupIndex(TabletDescriptor tablet, ColumnGroup group, MultiVersionIndex index, List<SortedSegment> segments,
      long gcHorizon, long loadedLsn) {
    this.tablet = tablet;
    this.group = group;
    this.index = index;
    this.segments = List.copyOf(segments);
    this.gcHorizon = gcHorizon;
    this.loadedLsn = loadedLsn;
  }

  public TabletDescriptor tablet() {
    return tablet;
  }

  public ColumnGroup group() {
    return group;
  }

  public MultiVersionIndex index() {
    return index;
  }

  /** Sorted segments, newest first. */
  public List<SortedSegment> segments() {
    return segments;
  }

  public long gcHorizon() {
    return gcHorizon;
  }

  public long loadedLsn() {
    return loadedLsn;
  }

  /** Installs a durable version; skips records its checkpoint already holds. */
  void install(byte[] key, long ts, long lsn, long pointer, int meta) {
    if (lsn <= loadedLsn) {
      return;
    }
    index.put(key, ts, pointer, meta);
    updatesSinceCheckpoint.incrementAndGet();
  }

  public long updatesSinceCheckpoint() {
    return updatesSinceCheckpoint.get();
  }

  /** Makes the next checkpoint write this index anew even if it took no update. */
  public void mustCheckpoint() {
    updatesSinceCheckpoint.incrementAndGet();
  }

  public long nanosSinceCheckpoint() {
    return System.nanoTime() - lastCheckpointNanos;
  }

  /** Records that a checkpoint captured the index after {@code updatesCovered} of its updates. */
  public void checkpointed(long updatesCovered) {
    updatesSinceCheckpoint.addAndGet(-updatesCovered);
    lastCheckpointNanos = System.nanoTime();
  }

  @Override
  public String toString() {
    return tablet + "/" + group.name();
  }
}
