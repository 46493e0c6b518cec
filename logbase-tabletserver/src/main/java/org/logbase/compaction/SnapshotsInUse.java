package org.logbase.compaction;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The snapshots that reads on this server are using now (scans in progress: a scan reads all its
 * batches at one snapshot, however long its client takes), which the GC horizon of the server's
 * compactions must not pass. Short reads need no entry: they end well within the retention window.
 * Thread-safe; a hold is released once, by whoever ends the read.
 */
public final class SnapshotsInUse {
  /** One snapshot in use until {@link #close}. */
  public final class Hold implements AutoCloseable {
    private final long snapshot;

    private Hold(long snapshot) {
      this.snapshot = snapshot;
    }

    /** Releases the snapshot; idempotent. */
    @Override
    public void close() {
      held.remove(this);
    }
  }

  private final Set<Hold> held = ConcurrentHashMap.newKeySet();

  public Hold hold(long snapshot) {
    Hold h = new Hold(snapshot);
    held.add(h);
    return h;
  }

  /** The oldest snapshot in use, or 0 if none. */
  public long oldest() {
    return held.stream().mapToLong(h -> h.snapshot).min().orElse(0);
  }

  /**
   * The older of two "oldest snapshot" answers where 0 means none: the snapshot compaction must not
   * pass.
   */
  public static long older(long a, long b) {
    return a == 0 ? b : b == 0 ? a : Math.min(a, b);
  }
}
