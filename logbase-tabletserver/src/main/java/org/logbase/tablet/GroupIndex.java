package org.logbase.tablet;

import java.util.concurrent.atomic.AtomicLong;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.index.MultiVersionIndex;

/**
 * The multiversion index of one (tablet, column group), with what checkpointing needs to know about
 * it: the LSN its checkpoint covered when it was loaded, and how many updates it took since the
 * last checkpoint.
 */
public final class GroupIndex {
  private final TabletDescriptor tablet;
  private final ColumnGroup group;
  private final MultiVersionIndex index;
  private final long loadedLsn;
  private final AtomicLong updatesSinceCheckpoint = new AtomicLong();
  private volatile long lastCheckpointNanos = System.nanoTime();

  /**
   * @param loadedLsn the checkpoint this index was loaded from covers every record up to this LSN;
   *     replay must not apply those again (0 if built from nothing)
   */
  public GroupIndex(TabletDescriptor tablet, ColumnGroup group, MultiVersionIndex index, long loadedLsn) {
    this.tablet = tablet;
    this.group = group;
    this.index = index;
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
