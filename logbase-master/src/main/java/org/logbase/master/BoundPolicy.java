package org.logbase.master;

import org.logbase.common.Config;
import org.logbase.common.HybridTimestamp;

/**
 * How far ahead the timestamp oracle's persisted bound runs, and when it is renewed. The bound is
 * {@code lead} ahead of the later of the wall clock and the last timestamp handed out; it is renewed
 * once less than {@code headroom} of it is left, so that in steady state a renewal is done long
 * before any request reaches the bound and requests never wait on ZooKeeper.
 *
 * @param leadMs how far ahead of "now" a new bound lies (ms); also the most a new master's
 *     timestamps can run ahead of the wall clock after a failover
 * @param headroomMs renew when the bound is less than this far ahead (ms)
 */
record BoundPolicy(long leadMs, long headroomMs) {
  /** Setting: how far ahead of the clock the persisted bound lies. */
  static final String LEAD_MS = "master.timestamp.bound.ms";
  static final long DEFAULT_LEAD_MS = 3000;
  /** Setting: renew the bound once less than this much of it is left. */
  static final String HEADROOM_MS = "master.timestamp.renew.headroom.ms";
  static final long DEFAULT_HEADROOM_MS = 1000;

  BoundPolicy {
    if (headroomMs <= 0 || leadMs <= headroomMs) {
      throw new IllegalArgumentException("timestamp bound settings need 0 < " + HEADROOM_MS + " (" + headroomMs
          + ") < " + LEAD_MS + " (" + leadMs + ")");
    }
  }

  static BoundPolicy from(Config c) {
    return new BoundPolicy(c.getLong(LEAD_MS, DEFAULT_LEAD_MS), c.getLong(HEADROOM_MS, DEFAULT_HEADROOM_MS));
  }

  /** The bound to persist next, given the wall clock and the last timestamp handed out (or the floor). */
  long nextBound(long nowMillis, long last) {
    return HybridTimestamp.of(reference(nowMillis, last) + leadMs, 0);
  }

  /** Milliseconds until {@code bound} should be renewed; zero or less: now. */
  long millisUntilRenewal(long nowMillis, long last, long bound) {
    return HybridTimestamp.wallMillis(bound) - headroomMs - reference(nowMillis, last);
  }

  /** Where timestamps are now: the wall clock, or ahead of it when the counter ran ahead. */
  private static long reference(long nowMillis, long last) {
    return Math.max(nowMillis, HybridTimestamp.wallMillis(last));
  }
}
