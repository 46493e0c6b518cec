package org.logbase.compaction;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.log.LogRecord;
import org.logbase.sorted.SortedEntry;

/**
 * Which versions of one row in one column group a compaction keeps. No I/O: the row's versions in,
 * the survivors out (RowRetentionTest).
 *
 * <ul>
 *   <li>Retention, as reads already honour it: a version beyond the row's newest {@code maxVersions}
 *       (a delete counts as one) or past its time to live is dropped. With a maximum set, the newest
 *       {@code maxVersions} are all kept: dropping one of them would let an older version into the
 *       newest later, when new versions push them down, and a read would change.
 *   <li>Above the GC horizon every version is kept: a snapshot there may read it.
 *   <li>Without a maximum, at or below the horizon a snapshot at the horizon reads the newest version there (the
 *       base) and, for columns the base lacks, older versions down to the next tombstone. Those are
 *       kept; every older version, and a tombstone with nothing kept below it, is dropped. (Merging
 *       them into one version would change the timestamps reads report for its columns; not done.)
 *   <li>A version a transaction wrote within {@code txnRetentionMs} is never dropped, nor a tombstone
 *       above it: a secondary of the transaction may still ask its primary row whether it committed
 *       (docs/transactions.md). Reads do not see it where retention hides it.
 * </ul>
 */
final class RowRetention {
  private final StoragePolicy policy;
  private final Set<String> groupColumns;
  private final long horizon;
  private final long nowMs;
  private final long txnRetentionMs;

  RowRetention(StoragePolicy policy, List<String> groupColumns, long horizon, long nowMs, long txnRetentionMs) {
    this.policy = policy;
    this.groupColumns = Set.copyOf(groupColumns);
    this.horizon = horizon;
    this.nowMs = nowMs;
    this.txnRetentionMs = txnRetentionMs;
  }

  /** @param versions one row's versions, newest first */
  List<SortedEntry> keep(List<SortedEntry> versions) {
    List<SortedEntry> out = new ArrayList<>(versions.size());
    Set<String> missing = null; // columns a snapshot at the horizon still looks for; null: above it
    boolean below = false; // past what a snapshot at or above the horizon can reach
    int pendingTombstone = -1; // a dropped tombstone, restored if a protected version is kept under it
    for (int i = 0; i < versions.size(); i++) {
      SortedEntry v = versions.get(i);
      boolean keep;
      if (policy.maxVersions() > 0 && i >= policy.maxVersions()) {
        keep = false;
      } else if (policy.expired(HybridTimestamp.wallMillis(v.timestamp()), nowMs)) {
        keep = false;
      } else if (policy.maxVersions() > 0 || v.timestamp() > horizon) {
        // With a maximum, all of the newest versions stay: dropping one in between would let an
        // older one into the newest later, when new versions push them down.
        keep = true;
      } else if (below) {
        keep = false;
      } else {
        if (missing == null) {
          missing = new HashSet<>(groupColumns);
        }
        if (v.isTombstone()) {
          below = true;
          keep = false;
          pendingTombstone = i;
        } else {
          boolean adds = false;
          for (LogRecord.Column c : v.columns()) {
            adds |= missing.remove(c.name());
          }
          keep = adds; // the base always adds: it is the first version a snapshot at the horizon meets
          if (missing.isEmpty()) {
            below = true;
          }
        }
      }
      if (!keep && protectedTxn(v)) {
        if (pendingTombstone >= 0 && pendingTombstone < i) {
          out.add(versions.get(pendingTombstone)); // what the tombstone hides must stay hidden
          pendingTombstone = -1;
        }
        keep = true;
      }
      if (keep) {
        if (pendingTombstone == i) {
          pendingTombstone = -1; // kept for itself (a transaction's)
        }
        out.add(v);
      }
    }
    return out;
  }

  private boolean protectedTxn(SortedEntry v) {
    return v.txnId() != 0 && HybridTimestamp.wallMillis(v.timestamp()) >= nowMs - txnRetentionMs;
  }
}
