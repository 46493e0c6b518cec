package org.logbase.txn;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.logbase.common.Bytes;
import org.logbase.common.Failures;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.RowLockedException;
import org.logbase.common.SnapshotTooOldException;
import org.logbase.common.Threads;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.logbase.log.AppendedRecord;
import org.logbase.log.Durability;
import org.logbase.log.LogRecord;
import org.logbase.tablet.PreparedRecords;
import org.logbase.tablet.RecordStore;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tablet.TimestampSource;
import org.logbase.tablet.WriteGate;
import org.logbase.tabletserver.StorageEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits on one tablet server: one-row writes, one-participant transactions, both phases of
 * two-phase commit, resolution of in-doubt transactions, and the rule that makes snapshot reads
 * wait for locks (docs/transactions.md).
 *
 * <p>Every write path follows the same order: lock the rows (in key order), validate (first
 * committer wins), take the commit timestamp from the oracle, append the records and their COMMIT
 * in one log batch, install, unlock. Because a commit timestamp is taken only after the locks, a
 * reader that finds a row unlocked knows that any commit still to come on it gets a timestamp above
 * the reader's snapshot.
 */
public final class TxnManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TxnManager.class);

  /** Where to find the served tablet holding a row; null if this server does not serve it. */
  @FunctionalInterface
  public interface LocalTablets {
    Tablet find(String table, byte[] key);
  }

  /** Asks the server of a transaction's primary row for the transaction's outcome. */
  @FunctionalInterface
  public interface PrimaryResolver {
    Outcome resolve(long txnId, String primaryTable, byte[] primaryKey);
  }

  /** A transaction's outcome as decided by its primary. */
  public record Outcome(boolean committed, long commitTs) {
    public static final Outcome ABORTED = new Outcome(false, 0);
  }

  /** A transaction prepared here and not yet decided. */
  private static final class Prepared {
    final long txnId;
    final TxnLock lock;
    final List<LockKey> rows;
    CompletableFuture<Outcome> decision;

    Prepared(long txnId, TxnLock lock, List<LockKey> rows) {
      this.txnId = txnId;
      this.lock = lock;
      this.rows = new ArrayList<>(rows);
    }
  }

  private final StorageEngine engine;
  private final LockManager locks;
  private final TimestampSource clock;
  private final LocalTablets local;
  private final PrimaryResolver remote;
  private final TxnSettings settings;
  private final Map<Long, Prepared> prepared = new ConcurrentHashMap<>();
  /**
   * Decide requests for a transaction not prepared here (see {@link #decide}). Harmless, so they
   * are answered OK, and counted for operators: a secondary legitimately gets Decide(commit) for a
   * transaction it no longer holds when an in-doubt resolution through the primary decided it
   * already, or when it restarted and recovery settled the transaction before the tablet reopened;
   * a Decide(abort) of a transaction whose prepare never arrived (or failed) has nothing to undo.
   * In every case nothing of the transaction is locked or pending here, and the decision changes
   * nothing: only the primary decides, and a commit on the primary is checked against its row.
   */
  private final LongAdder unknownDecides = new LongAdder();
  private final ScheduledExecutorService sweeper;

  public TxnManager(StorageEngine engine, LockManager locks, TimestampSource clock, LocalTablets local,
      PrimaryResolver remote, TxnSettings settings) {
    this.engine = engine;
    this.locks = locks;
    this.clock = clock;
    this.local = local;
    this.remote = remote;
    this.settings = settings;
    this.sweeper = Executors.newSingleThreadScheduledExecutor(Threads.daemon("txn-sweeper"));
    long period = Math.max(50, settings.lockTtlMs() / 2);
    sweeper.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
    engine.onPreparedRestored(this::adopt);
  }

  /**
   * A transaction layer for a storage engine on its own (the storage demo, crash tests, engine
   * benchmarks, tests): row locks in memory, the engine's clock, and no other servers (a transaction
   * whose primary is elsewhere cannot exist there).
   */
  public static TxnManager standalone(StorageEngine engine) {
    return new TxnManager(engine, new LocalLockManager(), engine.clock(),
        (table, key) -> engine.registry().snapshot().findByKey(table, key),
        (txn, table, key) -> {
          throw new IllegalStateException("transaction " + txn + " names a primary row on another server, and this"
              + " storage engine has none");
        }, TxnSettings.DEFAULT);
  }

  // ------------------------------------------------------------------ one-row writes: the write path

  /**
   * Writes rows outside a transaction, each an atomic version of its own (blind: nothing is
   * validated): the one write path of the server. Waits for locks other writers hold; all rows share
   * one batch of timestamps and one log batch; the locks are released once it is durable.
   *
   * @return the commit timestamp of each write, in order; bad input fails at once (thrown)
   */
  public CompletableFuture<long[]> write(WriteBatch batch, Durability durability) {
    return write(batch, durability, false);
  }

  /**
   * Like {@link #write(WriteBatch, Durability)}; with {@code refuseIfPrepared}, a row locked by a
   * prepared transaction refuses the whole call at once ({@link RowLockedException}, nothing
   * written) instead of making every row wait for that transaction's decision.
   */
  public CompletableFuture<long[]> write(WriteBatch batch, Durability durability, boolean refuseIfPrepared) {
    List<RowWrite> writes = batch.rows();
    List<LockKey> rows = sortedRows(writes);
    TxnLock owner = TxnLock.blind();
    acquireWaiting(rows, owner, refuseIfPrepared);
    try {
      admit(writes);
      long first = clock.nextRange(writes.size());
      long[] ts = new long[writes.size()];
      List<LogRecord> records = new ArrayList<>();
      for (int i = 0; i < writes.size(); i++) {
        ts[i] = first + i;
        records.addAll(Tablet.withCommit(writes.get(i).records(ts[i], 0), ts[i]));
      }
      return unlockWhenDone(engine.append(records, durability), rows, owner).thenApply(a -> ts);
    } catch (RuntimeException | Error e) {
      locks.unlockAll(rows, owner);
      throw e;
    }
  }

  /** Puts one row and waits until it is durable; returns its timestamp. */
  public long put(Tablet tablet, byte[] key, Map<String, byte[]> columns, Durability durability) throws IOException {
    return awaitWrite(write(new WriteBatch().put(tablet, key, columns), durability));
  }

  /** Deletes one row (in every column group) and waits until it is durable; returns its timestamp. */
  public long delete(Tablet tablet, byte[] key, Durability durability) throws IOException {
    return awaitWrite(write(new WriteBatch().delete(tablet, key), durability));
  }

  private static long awaitWrite(CompletableFuture<long[]> f) throws IOException {
    try {
      return f.get()[0];
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the log flush; the write may or may not be durable");
    } catch (ExecutionException e) {
      throw RecordStore.unwrap(e.getCause());
    }
  }

  // ------------------------------------------------------------------ one participant

  /**
   * Commits a transaction whose writes all live on this server: lock, validate, timestamp, one log
   * batch with the data and the COMMIT record, install, unlock.
   *
   * @return the commit timestamp, once durable and visible
   * @throws TransactionConflictException if a row was written after {@code startTs} or is locked
   */
  public CompletableFuture<Long> commit(long startTs, List<RowWrite> writes, Durability durability) {
    List<LockKey> rows = sortedRows(writes);
    TxnLock owner = TxnLock.of(startTs, null, null, false);
    lockOrConflict(rows, owner);
    try {
      admit(writes);
      validate(startTs, writes);
      long commitTs = clock.next();
      List<LogRecord> records = new ArrayList<>();
      for (RowWrite w : writes) {
        records.addAll(w.records(commitTs, startTs));
      }
      records.add(LogRecord.commit(commitTs, startTs));
      return unlockWhenDone(engine.append(records, durability), rows, owner).thenApply(a -> commitTs);
    } catch (RuntimeException e) {
      locks.unlockAll(rows, owner);
      throw e;
    }
  }

  // ------------------------------------------------------------------ two-phase commit

  /**
   * Phase one: locks and validates the rows, then appends them with a PREPARE record naming the
   * primary. Completes once that is durable; the locks stay until {@link #decide}.
   */
  public CompletableFuture<Void> prepare(
      long startTs, List<RowWrite> writes, String primaryTable, byte[] primaryKey, Durability durability) {
    if (prepared.containsKey(startTs)) {
      throw new TransactionAbortedException("transaction " + startTs + " is prepared here already");
    }
    List<LockKey> rows = sortedRows(writes);
    TxnLock owner = TxnLock.of(startTs, primaryTable, primaryKey, true);
    lockOrConflict(rows, owner);
    Prepared p = new Prepared(startTs, owner, rows);
    try {
      admit(writes);
      validate(startTs, writes);
      List<LogRecord> records = new ArrayList<>();
      for (RowWrite w : writes) {
        // The timestamp is a placeholder: the COMMIT record's timestamp is what readers see.
        records.addAll(w.records(startTs, startTs));
      }
      records.add(LogRecord.prepare(startTs, primaryTable, primaryKey));
      prepared.put(startTs, p);
      return engine.append(records, durability).handle((a, error) -> {
        if (error != null) {
          prepared.remove(startTs);
          locks.unlockAll(rows, owner);
          throw new CompletionException(error);
        }
        return null;
      });
    } catch (RuntimeException e) {
      prepared.remove(startTs);
      locks.unlockAll(rows, owner);
      throw e;
    }
  }

  /**
   * Phase two on this participant. On the primary, a commit is the decision; it fails with
   * {@link TransactionAbortedException} if the transaction was resolved as aborted meanwhile. A
   * participant that no longer knows the transaction was decided through the primary already.
   */
  public CompletableFuture<Void> decide(long startTs, boolean commit, long commitTs, String primaryTable,
      byte[] primaryKey, boolean isPrimary, Durability durability) {
    Prepared p = prepared.get(startTs);
    if (p == null) {
      if (commit && isPrimary && committedAt(startTs, primaryTable, primaryKey) != commitTs) {
        throw new TransactionAbortedException("transaction " + startTs + " was aborted before its commit arrived");
      }
      unknownDecides.increment(); // harmless: see the field's comment
      return CompletableFuture.completedFuture(null);
    }
    return finish(p, commit ? new Outcome(true, commitTs) : Outcome.ABORTED, durability).thenApply(o -> {
      if (commit && !o.committed()) {
        throw new TransactionAbortedException("transaction " + startTs + " was aborted before its commit arrived");
      }
      return null;
    });
  }

  /**
   * Asked of the primary's server: the transaction's outcome. A transaction still prepared here is
   * in doubt (its coordinator went quiet), so this server, the single arbiter, aborts it.
   */
  public Outcome resolve(long txnId, String primaryTable, byte[] primaryKey) {
    // The primary row is the record of the decision: a version of it written by this transaction
    // means its COMMIT is in this server's log, whatever is (or is again) held in memory. Memory is
    // read first: a decision applied between the two reads installs the version before it drops
    // the transaction from memory, so one of them sees it (read the other way round, a commit
    // landing in between was answered as aborted, and the secondaries dropped their halves).
    Prepared p = prepared.get(txnId);
    long ts = committedAt(txnId, primaryTable, primaryKey);
    if (ts > 0) {
      if (p != null) {
        LOG.warn("transaction {} is committed at {} but was held as prepared here: releasing it", txnId, ts);
        join(finish(p, new Outcome(true, ts), Durability.HFLUSH));
      }
      return new Outcome(true, ts);
    }
    if (p != null) {
      LOG.info("transaction {} is in doubt: aborting it as its primary", txnId);
      return join(finish(p, Outcome.ABORTED, Durability.HFLUSH));
    }
    return Outcome.ABORTED;
  }

  private long committedAt(long txnId, String primaryTable, byte[] primaryKey) {
    Tablet t = local.find(primaryTable, primaryKey);
    if (t == null) {
      throw new NotServingTabletException("this server does not serve the primary row "
          + Bytes.toStringBinary(primaryKey) + " of table '" + primaryTable + "'");
    }
    try {
      return t.commitTimestampOf(primaryKey, txnId);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the outcome once (whoever comes first: coordinator, resolver, sweeper), then unlocks. */
  private CompletableFuture<Outcome> finish(Prepared p, Outcome outcome, Durability durability) {
    synchronized (p) {
      if (p.decision != null) {
        return p.decision;
      }
      LogRecord record = outcome.committed() ? LogRecord.commit(outcome.commitTs(), p.txnId) : LogRecord.abort(p.txnId);
      CompletableFuture<Outcome> f = new CompletableFuture<>();
      p.decision = f;
      engine.append(List.of(record), durability).whenComplete((a, error) -> {
        if (error != null) {
          synchronized (p) {
            p.decision = null; // undecided after all: the next attempt writes it again
          }
          f.completeExceptionally(error);
          return;
        }
        prepared.remove(p.txnId);
        locks.unlockAll(p.rows, p.lock);
        f.complete(outcome);
      });
      return f;
    }
  }

  // ------------------------------------------------------------------ readers

  /**
   * The snapshot-read rule for one row: waits while the row is locked by a transaction whose commit
   * timestamp may fall below {@code snapshotTs}, resolving it through its primary when it is in
   * doubt. Without this a later read at the same snapshot could see a version this one did not.
   */
  public void awaitReadable(int tableId, byte[] key, long snapshotTs) {
    if (!settings.readersWait()) {
      return;
    }
    LockKey row = new LockKey(tableId, key);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.lockWaitMs());
    TxnLock h;
    while ((h = locks.holder(row)) != null && h.mayCommitBelow(snapshotTs)) {
      waitFor(h, deadline);
    }
  }

  /** The snapshot-read rule for a scan of [startInclusive, endExclusive) of a table (null: unbounded). */
  public void awaitRangeReadable(int tableId, byte[] startInclusive, byte[] endExclusive, long snapshotTs) {
    if (!settings.readersWait()) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.lockWaitMs());
    boolean again = true;
    while (again) {
      again = false;
      for (TxnLock h : locks.heldIn(tableId, startInclusive, endExclusive)) {
        if (h.mayCommitBelow(snapshotTs)) {
          waitFor(h, deadline);
          again = true;
        }
      }
    }
  }

  /** Waits for a holder to release, resolving it when it is prepared and in doubt. */
  private void waitFor(TxnLock h, long deadlineNanos) {
    long left = deadlineNanos - System.nanoTime();
    if (left <= 0) {
      throw new LogBaseException("row is locked by transaction " + h.txnId() + " for " + h.heldMillis()
          + " ms; gave up waiting after " + settings.lockWaitMs() + " ms");
    }
    long untilDoubt = TimeUnit.MILLISECONDS.toNanos(Math.max(1, settings.lockTtlMs() - h.heldMillis()));
    try {
      h.released().get(Math.min(left, untilDoubt), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (h.prepared() && h.heldMillis() >= settings.lockTtlMs()) {
        resolveInDoubt(h);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted while waiting for a row lock");
    } catch (ExecutionException e) {
      throw new LogBaseException("waiting for a row lock failed: " + e.getCause(), e.getCause());
    }
  }

  /** Settles a prepared transaction here by asking its primary (which may be this server). */
  private void resolveInDoubt(TxnLock h) {
    Prepared p = prepared.get(h.txnId());
    if (p == null) {
      return;
    }
    Outcome o = local.find(h.primaryTable(), h.primaryKey()) != null
        ? resolve(h.txnId(), h.primaryTable(), h.primaryKey())
        : remote.resolve(h.txnId(), h.primaryTable(), h.primaryKey());
    join(finish(p, o, Durability.HFLUSH));
    LOG.info("resolved in-doubt transaction {}: {}", h.txnId(), o.committed() ? "committed at " + o.commitTs() : "aborted");
  }

  /** Resolves every prepared transaction that has been in doubt for longer than the lock TTL. */
  private void sweep() {
    for (Prepared p : List.copyOf(prepared.values())) {
      if (p.lock.heldMillis() >= settings.lockTtlMs()) {
        try {
          resolveInDoubt(p.lock);
        } catch (RuntimeException e) {
          LOG.warn("could not resolve in-doubt transaction {} yet: {}", p.txnId, e.toString());
        }
      }
    }
  }

  // ------------------------------------------------------------------ recovery

  /**
   * Locks the rows of a prepared transaction that recovery found undecided in the log (after a
   * restart, or when a tablet was opened); they stay locked until the primary decides. The engine
   * calls this while no log batch is applied, so the transaction is still undecided: if it is
   * prepared here live as well (its other tablets on this server opened earlier), the rows join
   * that transaction; otherwise it is taken up anew.
   */
  private void adopt(PreparedRecords r) {
    TreeSet<LockKey> rows = new TreeSet<>();
    for (AppendedRecord a : r.rows()) {
      rows.add(new LockKey(a.record().tableId(), a.record().key()));
    }
    Prepared p = prepared.computeIfAbsent(r.txnId(), id -> new Prepared(id,
        TxnLock.of(id, r.prepare().primaryTable(), r.prepare().key(), true), List.of()));
    synchronized (p) {
      List<LockKey> fresh = rows.stream().filter(k -> !p.rows.contains(k)).toList();
      TxnLock other = locks.tryLockAll(fresh, p.lock);
      if (other != null) {
        LOG.error("recovered prepared transaction {} finds its row locked by transaction {}", r.txnId(), other.txnId());
      } else {
        p.rows.addAll(fresh);
      }
    }
    LOG.info("recovered prepared transaction {} ({} rows, primary {}/{}): locked until its primary decides",
        r.txnId(), rows.size(), r.prepare().primaryTable(), Bytes.toStringBinary(r.prepare().key()));
  }

  // ------------------------------------------------------------------ closing a tablet

  /**
   * Stops {@code t} taking writes and waits until every write, commit and prepared transaction that
   * holds a row of it has finished (is durable and applied, or decided), so that nothing more is
   * appended for it here: what its next server replays from this log is then complete. A prepared
   * transaction holds its rows until its primary decides; one in doubt is resolved through its
   * primary on the way, as readers do.
   *
   * @throws RowLockedException if rows are still held after {@code maxMs}; the tablet then takes
   *     writes again
   */
  public void closeForWrites(Tablet t, String why, long maxMs) {
    TabletDescriptor d = t.descriptor();
    t.gate().close(why);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMs);
    boolean drained = false;
    try {
      List<TxnLock> held;
      while (!(held = locks.heldIn(d.schema().id(), d.startKey(), d.endKey())).isEmpty()) {
        waitFor(held.get(0), deadline);
      }
      drained = true;
    } catch (LogBaseException e) {
      throw new RowLockedException("tablet " + d + " cannot be closed now: rows of it are held by writes or"
          + " transactions in progress (" + e.getMessage() + ")");
    } finally {
      if (!drained) {
        t.gate().reopen(); // only this close's: another closer's stays (WriteGate counts them)
      }
    }
  }

  // ------------------------------------------------------------------ helpers

  /** Refuses writes to a tablet that is closing (called with the rows locked: see {@link WriteGate}). */
  private static void admit(List<RowWrite> writes) {
    Tablet last = null;
    for (RowWrite w : writes) {
      if (w.tablet() != last) {
        last = w.tablet();
        last.gate().check(last.descriptor());
      }
    }
  }

  private void lockOrConflict(List<LockKey> rows, TxnLock owner) {
    for (int attempt = 0; ; attempt++) {
      TxnLock other = locks.tryLockAll(rows, owner);
      if (other == null) {
        return;
      }
      if (attempt == 0 && other.prepared() && other.heldMillis() >= settings.lockTtlMs()) {
        resolveInDoubt(other);
        continue;
      }
      throw new TransactionConflictException("transaction " + owner.txnId() + " conflicts: a row it writes is locked by "
          + (other.txnId() == 0 ? "a write in progress" : "transaction " + other.txnId()));
    }
  }

  /**
   * One-row writes wait (within the lock wait limit) instead of failing; with {@code
   * refuseIfPrepared} not for a prepared transaction, whose decision may take long.
   */
  private void acquireWaiting(List<LockKey> rows, TxnLock owner, boolean refuseIfPrepared) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.lockWaitMs());
    TxnLock other;
    while ((other = locks.tryLockAll(rows, owner)) != null) {
      if (refuseIfPrepared && other.prepared()) {
        throw new RowLockedException("a row of this batch is locked by prepared transaction " + other.txnId()
            + "; send its writes one by one");
      }
      waitFor(other, deadline);
    }
  }

  /** First committer wins: no row may have a version committed after the transaction began. */
  private void validate(long startTs, List<RowWrite> writes) {
    if (!settings.validate()) {
      return;
    }
    for (RowWrite w : writes) {
      // The tablet as served now: a compaction may have replaced the one the write was made with,
      // and writes since are only in the new one's index.
      Tablet now = engine.tabletOrNull(w.tablet().descriptor().id());
      Tablet t = now != null ? now : w.tablet();
      if (startTs < t.gcHorizon()) {
        // Compaction may have dropped a version written after the transaction began (a delete
        // below the horizon, say): the check below could not see the conflict.
        throw new SnapshotTooOldException("transaction " + startTs + " began below the GC horizon "
            + t.gcHorizon() + " of tablet " + t.descriptor() + ": its writes cannot be checked for conflicts"
            + "; run it again");
      }
      long newest = t.newestTimestamp(w.key());
      if (newest > startTs) {
        throw new TransactionConflictException("transaction " + startTs + " conflicts: row "
            + Bytes.toStringBinary(w.key()) + " of table '" + w.tablet().descriptor().schema().name()
            + "' was written at " + newest + ", after the transaction began");
      }
    }
  }

  private <T> CompletableFuture<T> unlockWhenDone(CompletableFuture<T> f, List<LockKey> rows, TxnLock owner) {
    return f.whenComplete((a, error) -> locks.unlockAll(rows, owner));
  }

  private static List<LockKey> sortedRows(List<RowWrite> writes) {
    if (writes.isEmpty()) {
      throw new IllegalArgumentException("nothing to write");
    }
    TreeSet<LockKey> rows = new TreeSet<>();
    writes.forEach(w -> rows.add(w.row()));
    return new ArrayList<>(rows);
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogBaseException("interrupted while writing a transaction's outcome");
    } catch (ExecutionException e) {
      throw Failures.cause(e, "writing a transaction's outcome");
    }
  }

  /** The row locks held now. */
  public List<LockManager.Held> locks() {
    return locks.all();
  }

  /** Decide requests answered for transactions not prepared here, since start (harmless; counted). */
  public long unknownDecides() {
    return unknownDecides.sum();
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    locks.close();
  }
}
