package org.logbase.tablet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.logbase.log.AppendedRecord;
import org.logbase.log.LogPointer;
import org.logbase.log.LogPosition;
import org.logbase.log.LogRecord;
import org.logbase.log.RecordType;

/**
 * Turns durable log records into index entries, in log order, the same way for live writes and for
 * recovery replay. A record with {@code txnId == 0} commits by itself; records of a transaction (or
 * of an atomic multi-column-group write) wait for their COMMIT, and an ABORT drops them, so
 * uncommitted data never reaches an index.
 *
 * <p>Records are applied by one thread (the log writer thread, or the recovery thread); tablets may
 * be registered and unregistered from others.
 */
public final class IndexApplier {
  /** How far the indexes are complete: every record up to {@code lsn} is applied, replay may start at {@code position}. */
  public record Watermark(long lsn, LogPosition position) {}

  private final Map<TabletId, GroupIndex[]> indexes;
  private final RecordCache cache;
  private final Map<Long, List<AppendedRecord>> pending = new HashMap<>();
  private volatile Watermark watermark;
  private long applied;
  private long skippedUnknownTablet;

  /**
   * @param indexes per tablet, the group indexes by column-group id (array index = group id)
   * @param start the watermark before anything is applied
   */
  public IndexApplier(Map<TabletId, GroupIndex[]> indexes, RecordCache cache, Watermark start) {
    this.indexes = new ConcurrentHashMap<>(indexes);
    this.cache = cache;
    this.watermark = start;
  }

  /** Applies a durable batch and advances the watermark to its end. */
  public void applyBatch(List<AppendedRecord> batch, LogPosition end) {
    for (AppendedRecord r : batch) {
      apply(r);
    }
    long lastLsn = batch.isEmpty() ? watermark.lsn() : batch.get(batch.size() - 1).record().lsn();
    // Undecided records must be replayed after a crash, so the watermark never passes the oldest.
    watermark = pending.isEmpty() ? new Watermark(lastLsn, end) : watermarkBeforePending(lastLsn, end);
  }

  /** Applies one record (recovery replay calls this record by record). */
  public void apply(AppendedRecord r) {
    LogRecord rec = r.record();
    RecordType type = rec.type();
    if (type.isRowVersion() || type == RecordType.PREPARE) {
      if (rec.txnId() == 0 && type.isRowVersion()) {
        install(r, rec.timestamp());
      } else {
        pending.computeIfAbsent(rec.txnId(), t -> new ArrayList<>()).add(r);
      }
    } else if (type == RecordType.COMMIT) {
      List<AppendedRecord> group = pending.remove(rec.txnId());
      if (group != null) {
        for (AppendedRecord g : group) {
          if (g.record().type().isRowVersion()) {
            install(g, rec.timestamp());
          }
        }
      }
    } else if (type == RecordType.ABORT) {
      pending.remove(rec.txnId());
    }
  }

  private void install(AppendedRecord r, long commitTs) {
    LogRecord rec = r.record();
    GroupIndex[] groups = indexes.get(new TabletId(rec.tableId(), rec.tabletId()));
    GroupIndex gi = groups == null || rec.columnGroupId() >= groups.length ? null : groups[rec.columnGroupId()];
    if (gi == null) {
      skippedUnknownTablet++;
      return;
    }
    int flags = rec.type() == RecordType.TOMBSTONE ? LogPointer.FLAG_TOMBSTONE : 0;
    gi.install(rec.key(), commitTs, rec.lsn(), r.pointer(), LogPointer.meta(r.frameLength(), flags));
    cache.put(r.pointer(), rec, r.frameLength());
    applied++;
  }

  private Watermark watermarkBeforePending(long lastLsn, LogPosition end) {
    AppendedRecord oldest = null;
    for (List<AppendedRecord> l : pending.values()) {
      AppendedRecord first = l.get(0);
      if (oldest == null || first.record().lsn() < oldest.record().lsn()) {
        oldest = first;
      }
    }
    long ptr = oldest.pointer();
    return new Watermark(Math.min(lastLsn, oldest.record().lsn() - 1),
        new LogPosition(LogPointer.segment(ptr), LogPointer.offset(ptr)));
  }

  /** Starts routing records of a tablet to these indexes (a tablet opened, or its schema grew). */
  public void register(TabletId tablet, GroupIndex[] groups) {
    indexes.put(tablet, groups);
  }

  /** Stops routing records of a tablet anywhere (it closed); later records of it are skipped. */
  public void unregister(TabletId tablet) {
    indexes.remove(tablet);
  }

  public Watermark watermark() {
    return watermark;
  }

  /** Drops records whose transaction has no outcome in the log (end of replay); returns how many. */
  public int dropUndecided() {
    int n = pending.values().stream().mapToInt(List::size).sum();
    pending.clear();
    return n;
  }

  public long applied() {
    return applied;
  }

  public long skippedUnknownTablet() {
    return skippedUnknownTablet;
  }
}
