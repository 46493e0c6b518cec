package org.logbase.txn;

import org.logbase.common.Config;

/**
 * Settings of the transaction layer on a tablet server.
 *
 * @param lockTtlMs a prepared transaction holding locks longer than this is in doubt: whoever meets
 *     it asks the primary to decide
 * @param lockWaitMs the longest a reader or a one-row write waits for a lock before failing
 * @param validate false only in a deliberately broken variant (a test's), to show that validation
 *     is what prevents an anomaly; never read from configuration
 * @param readersWait false only in a deliberately broken variant, to show that the snapshot-read
 *     rule is needed; never read from configuration
 */
public record TxnSettings(long lockTtlMs, long lockWaitMs, boolean validate, boolean readersWait) {
  public static final String LOCK_TTL_MS = "txn.lock.ttl.ms";
  public static final String LOCK_WAIT_MS = "txn.lock.wait.ms";

  public static final TxnSettings DEFAULT = new TxnSettings(5000, 30_000, true, true);

  public static TxnSettings from(Config config) {
    return new TxnSettings(config.getLong(LOCK_TTL_MS, DEFAULT.lockTtlMs), config.getLong(LOCK_WAIT_MS, DEFAULT.lockWaitMs),
        true, true);
  }

  /** These settings with first-committer-wins validation on or off (off: a broken variant). */
  public TxnSettings withValidation(boolean on) {
    return new TxnSettings(lockTtlMs, lockWaitMs, on, readersWait);
  }

  /** These settings with snapshot reads waiting for locks or not (not: a broken variant). */
  public TxnSettings withReadersWaiting(boolean on) {
    return new TxnSettings(lockTtlMs, lockWaitMs, validate, on);
  }
}
