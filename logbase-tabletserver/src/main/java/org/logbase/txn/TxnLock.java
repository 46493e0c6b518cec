package org.logbase.txn;

import java.util.concurrent.CompletableFuture;

/**
 * What holds a set of row locks: a transaction committing or prepared here, or a one-row write.
 * One object per holder on this server; readers wait on {@link #released()}.
 *
 * @param txnId the transaction's start timestamp, 0 for a one-row (autocommit) write
 * @param primaryTable table of the row whose server decides the transaction (2PC), else null
 * @param primaryKey that row's key, else null
 * @param prepared true for phase one of two-phase commit: only such locks may be resolved by
 *     others, every other kind ends on its own once the log flush returns
 */
public record TxnLock(
    long txnId, String primaryTable, byte[] primaryKey, boolean prepared, long acquiredNanos,
    CompletableFuture<Void> released) {

  /** A lock taken now. */
  public static TxnLock of(long txnId, String primaryTable, byte[] primaryKey, boolean prepared) {
    return new TxnLock(txnId, primaryTable, primaryKey, prepared, System.nanoTime(), new CompletableFuture<>());
  }

  /** For a one-row write outside a transaction. */
  public static TxnLock blind() {
    return of(0, null, null, false);
  }

  /**
   * Whether a snapshot read at {@code snapshotTs} must wait for this holder: its commit timestamp
   * is not known yet and is above its start timestamp, so it can only fall below the snapshot if
   * the transaction began before it. A one-row write takes its timestamp after its lock: always.
   */
  public boolean mayCommitBelow(long snapshotTs) {
    return txnId < snapshotTs;
  }

  public long heldMillis() {
    return (System.nanoTime() - acquiredNanos) / 1_000_000;
  }

  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
