package org.logbase.client;

import java.util.function.LongSupplier;
import org.logbase.common.HybridTimestamp;

/**
 * A read's snapshot must not lie beyond the newest timestamp the oracle has issued: a commit that
 * lands later may still get a timestamp at or below it, so the same read could answer differently
 * twice (a read-only transaction "in 2099" saw each new commit).
 */
final class SnapshotCheck {
  private SnapshotCheck() {}

  /** @throws IllegalArgumentException when {@code snapshot} is newer than a fresh timestamp from {@code newest} */
  static void notInTheFuture(long snapshot, LongSupplier newest) {
    long now = newest.getAsLong();
    if (snapshot > now) {
      throw new IllegalArgumentException("snapshot " + snapshot + " (" + HybridTimestamp.toString(snapshot)
          + ") is in the future: the newest timestamp is " + now + " (" + HybridTimestamp.toString(now)
          + "); commits still to come could land at or below it, so reads there would not repeat");
    }
  }
}
