package org.logbase.txn;

import org.logbase.common.Config;

/**
 * Settings of the transaction layer on a tablet server.
 *
 * @param lockTtlMs a prepared transaction holding locks longer than this is in doubt: whoever meets
 *     it asks the primary to decide
 * @param lockWaitMs the longest a reader or a one-row write waits for a lock before failing
 * @param validate false only in tests that prove validation is what prevents an anomaly
 * @param readersWait false only in tests that prove the snapshot-read rule is needed
 */
public record TxnSettings(long lockTtlMs, long lockWaitMs, boolean validate, boolean readersWait) {
  public static final String LOCK_TTL_MS = "txn.lock.ttl.ms";
  public static final String LOCK_WAIT_MS = "txn.lock.wait.ms";
  /** Test-only: "false" turns off first-committer-wins validation (a deliberately broken variant). */
  public static final String VALIDATE = "txn.test.validate";
  /** Test-only: "false" lets snapshot reads ignore locks (a deliberately broken variant). */
  public static final String READERS_WAIT = "txn.test.readers.wait";

  public static final TxnSettings DEFAULT = new TxnSettings(5000, 30_000, true, true);

  public static TxnSettings from(Config config) {
    return new TxnSettings(config.getLong(LOCK_TTL_MS, DEFAULT.lockTtlMs), config.getLong(LOCK_WAIT_MS, DEFAULT.lockWaitMs),
        Boolean.parseBoolean(config.getString(VALIDATE, "true")),
        Boolean.parseBoolean(config.getString(READERS_WAIT, "true")));
  }
}
