package org.logbase.master;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.logbase.common.InvalidRequestException;

/**
 * The snapshots clients hold (HoldSnapshot): one lease per client naming the oldest snapshot its
 * long-running transactions read at, renewed within {@code master.snapshot.lease.ms}. The oldest
 * one goes to the tablet servers with every heartbeat answer, and their compactions keep every
 * version it reads. Kept in memory only: a master that just became active does not know the leases
 * of the one before, so for one lease period it answers "not known" (1: keep everything) until the
 * clients have renewed them here.
 */
final class SnapshotLeases {
  static final String LEASE_MS = "master.snapshot.lease.ms";
  static final long DEFAULT_LEASE_MS = 60_000;
  static final int MAX_LEASE_ID_CHARS = 64;
  static final int MAX_LEASES = 100_000;
  /** Oldest snapshot while the leases are not known: everything is kept. */
  static final long NOT_KNOWN = 1;

  private record Lease(long snapshot, long expiresNanos) {}

  private final long leaseMs;
  private final LongSupplier nanos;
  private final Map<String, Lease> leases = new HashMap<>();
  private long activatedNanos;
  private boolean active;

  SnapshotLeases(long leaseMs, LongSupplier nanos) {
    if (leaseMs < 1) {
      throw new IllegalArgumentException(LEASE_MS + " must be at least 1: " + leaseMs);
    }
    this.leaseMs = leaseMs;
    this.nanos = nanos;
  }

  long leaseMs() {
    return leaseMs;
  }

  synchronized void activated() {
    leases.clear();
    activatedNanos = nanos.getAsLong();
    active = true;
  }

  synchronized void deactivated() {
    active = false;
    leases.clear();
  }

  /** Holds (or renews, or with {@code release} drops) a client's lease. */
  synchronized void hold(String leaseId, long snapshot, boolean release) {
    if (leaseId.isEmpty() || leaseId.length() > MAX_LEASE_ID_CHARS) {
      throw new InvalidRequestException("a snapshot lease id has 1 to " + MAX_LEASE_ID_CHARS + " characters, not "
          + leaseId.length());
    }
    if (release) {
      leases.remove(leaseId);
      return;
    }
    if (snapshot <= 0) {
      throw new InvalidRequestException("a held snapshot is a positive timestamp, not " + snapshot);
    }
    expire();
    if (!leases.containsKey(leaseId) && leases.size() >= MAX_LEASES) {
      throw new InvalidRequestException("the master holds " + MAX_LEASES + " snapshot leases, the most it keeps");
    }
    leases.put(leaseId, new Lease(snapshot, nanos.getAsLong() + leaseMs * 1_000_000));
  }

  /** The oldest snapshot held now: 0 if none, {@link #NOT_KNOWN} during the first lease period. */
  synchronized long oldest() {
    if (!active || nanos.getAsLong() - activatedNanos < leaseMs * 1_000_000) {
      return NOT_KNOWN;
    }
    expire();
    return leases.values().stream().mapToLong(Lease::snapshot).min().orElse(0);
  }

  private void expire() {
    long now = nanos.getAsLong();
    leases.values().removeIf(l -> l.expiresNanos() - now < 0);
  }
}
