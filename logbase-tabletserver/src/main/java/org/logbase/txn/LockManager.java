package org.logbase.txn;

import java.util.List;

/**
 * Row write locks of the transactions committing on this server. Two implementations: the
 * in-memory {@link LocalLockManager} (default) and {@link ZooKeeperLockManager}, the paper's
 * per-row ZooKeeper locks; {@code txn.lock.manager} selects one.
 *
 * <p>Only the server that owns a row locks it, so every implementation keeps a local view of the
 * locks it holds; {@link #holder} and {@link #heldIn} answer from it without a remote call.
 */
public interface LockManager extends AutoCloseable {
  /**
   * Locks every row for {@code owner}, in the given order, all or none. Rows {@code owner} holds
   * already count as taken.
   *
   * @param rows distinct rows in ascending order (a fixed order makes deadlock impossible)
   * @return null when all are locked, else the holder of the first row that was not free
   */
  TxnLock tryLockAll(List<LockKey> rows, TxnLock owner);

  /** Releases those of the rows that {@code owner} holds, then completes {@code owner.released()}. */
  void unlockAll(List<LockKey> rows, TxnLock owner);

  /** The holder of a row's lock, or null. */
  TxnLock holder(LockKey row);

  /** Holders of locks on rows of a table with startInclusive <= key < endExclusive (null: unbounded). */
  List<TxnLock> heldIn(int tableId, byte[] startInclusive, byte[] endExclusive);

  /** Every lock held now, with its row. */
  List<Held> all();

  /** A row and its holder. */
  record Held(LockKey row, TxnLock holder) {}

  @Override
  default void close() {}
}
