package org.logbase.client;

/** The work of one transaction attempt, run by {@link LogBaseClient#inTransaction}. */
@FunctionalInterface
public interface TransactionBody<T> {
  /** Reads and writes through {@code txn}; do not commit or abort it, the caller does. */
  T run(Transaction txn);
}
