/**
 * The write path and transactions on a tablet server (MVOCC, snapshot isolation;
 * docs/transactions.md): every write outside a transaction goes through {@link
 * org.logbase.txn.TxnManager#write} with a {@link org.logbase.txn.WriteBatch}; row locks
 * behind {@link org.logbase.txn.LockManager} (an in-memory table, or per-row znodes in ZooKeeper),
 * one-participant commits, both phases of two-phase commit, resolution of in-doubt transactions
 * through their primary, the rule that makes snapshot reads wait for locks, and commit timestamps
 * from the oracle.
 *
 * <p>Owns the order of lock, validate, timestamp, append, install, unlock. It writes to the log
 * through the storage engine with records {@link org.logbase.tablet.Tablet} makes, and never touches
 * index or log internals.
 */
package org.logbase.txn;
