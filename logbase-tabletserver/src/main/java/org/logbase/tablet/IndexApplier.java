package org.logbase.tablet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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
 * <p>Records are applied by one thread (the log's acknowledger thread, or the recovery thread); the
 * router's tablets may change, and prepared transactions found by a replay be restored, from others.
 */
public final class IndexApplier {
  /** How far the indexes are complete: every record up to {@code lsn} is applied, replay may start at {@code position}. */
  public record Watermark(long lsn, LogPosition position) {}

  /**
   * Where a record goes: the group indexes (by column-group id) of the open tablet whose key range
   * holds its row key, or null if no such tablet is open. By key, not by the tablet id the record
   * was written with, so records written before a split reach the right daughter.
   */
  @FunctionalInterface
  public interface Router {
    GroupIndex[] groups(int tableId, byte[] key);
  }

  private final Router router;
  private final RecordCache cache;
  private final Map<Long, List<AppendedRecord>> pending = new HashMap<>();
  private volatile Watermark watermark;
  private volatile LogPosition appliedEnd;
  private long applied;
  private long skippedUnknownTablet;
  private long droppedUndecided;

  /**
   * @param router the open tablets' indexes (a replay's own, or the server's registry of open tablets)
   * @param start the watermark before anything is applied
   */
  public IndexApplier(Router router, RecordCache cache, Watermark start) {
    this.router = router;
    this.cache = cache;
    this.watermark = start;
    this.appliedEnd = start.position();
  }

  /** Applies a durable batch and advances the watermark to its end. */
  public synchronized void applyBatch(List<AppendedRecord> batch, LogPosition end) {
    for (AppendedRecord r : batch) {
      apply(r);
    }
    long lastLsn = batch.isEmpty() ? watermark.lsn() : batch.get(batch.size() - 1).record().lsn();
    appliedEnd = end;
    advance(lastLsn, end);
  }

  // Undecided records must be replayed after a crash, so the watermark never passes the oldest.
  private void advance(long lastLsn, LogPosition end) {
    watermark = pending.isEmpty() ? new Watermark(lastLsn, end) : watermarkBeforePending(lastLsn, end);
  }

  /** Applies one record (recovery replay calls this record by record). */
  public synchronized void apply(AppendedRecord r) {
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
    GroupIndex[] groups = router.groups(rec.tableId(), rec.key());
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

  /**
   * Runs {@code action} while no batch is applied: the live path stands still at {@link
   * #appliedEnd()}, which {@code action} gets. Opening a tablet finishes its replay this way, so the
   * replay and the live path meet at one position with nothing decided in between.
   */
  public synchronized <T> T atAppliedEnd(Function<LogPosition, T> action) {
    return action.apply(appliedEnd);
  }

  public Watermark watermark() {
    return watermark;
  }

  /**
   * Ends a replay: removes every transaction without an outcome in the log and returns those that
   * were prepared (they hold a PREPARE record); the rest were never acknowledged and are dropped.
   */
  public synchronized List<PreparedRecords> takeUndecided() {
    List<PreparedRecords> prepared = new ArrayList<>();
    for (Map.Entry<Long, List<AppendedRecord>> e : pending.entrySet()) {
      LogRecord marker = null;
      List<AppendedRecord> rows = new ArrayList<>();
      for (AppendedRecord r : e.getValue()) {
        if (r.record().type() == RecordType.PREPARE) {
          marker = r.record();
        } else {
          rows.add(r);
        }
      }
      if (marker != null) {
        prepared.add(new PreparedRecords(e.getKey(), marker, rows));
      } else {
        droppedUndecided += e.getValue().size();
      }
    }
    pending.clear();
    return prepared;
  }

  /**
   * Hands a prepared transaction found by a replay to this (live) applier: its COMMIT or ABORT will
   * arrive through the log writer. Records already pending are not added twice.
   */
  public synchronized void restorePrepared(PreparedRecords p) {
    if (p.rows().isEmpty()) {
      return;
    }
    List<AppendedRecord> group = pending.computeIfAbsent(p.txnId(), t -> new ArrayList<>());
    Set<Long> known = new HashSet<>();
    group.forEach(r -> known.add(r.record().lsn()));
    for (AppendedRecord r : p.rows()) {
      if (known.add(r.record().lsn())) {
        group.add(r);
      }
    }
    group.sort(Comparator.comparingLong(r -> r.record().lsn()));
    Watermark w = watermark;
    advance(w.lsn(), w.position());
  }

  /** Row versions of transactions without an outcome that a replay dropped (never acknowledged). */
  public long droppedUndecided() {
    return droppedUndecided;
  }

  /** Where the last applied batch ended: a replay for a newly opened tablet runs up to here. */
  public LogPosition appliedEnd() {
    return appliedEnd;
  }

  public long applied() {
    return applied;
  }

  public long skippedUnknownTablet() {
    return skippedUnknownTablet;
  }
}
