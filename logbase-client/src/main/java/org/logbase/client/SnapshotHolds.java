package org.logbase.client;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.logbase.common.LogBaseException;
import org.logbase.common.Threads;
import org.logbase.rpc.HoldSnapshotRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshots this client's transactions read at. One that stays open longer than {@code
 * client.snapshot.lease.after.ms} is held at the master under this client's one lease
 * (HoldSnapshot, renewed every check while any is held, released when none is): the tablet servers'
 * compactions then keep every version it reads, however long it runs. Shorter ones cost nothing:
 * they are within the servers' retention window ({@code compaction.retention.ms}, which must be
 * longer than the lease delay). A client that dies stops renewing, and its lease expires.
 */
final class SnapshotHolds implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotHolds.class);

  /** One snapshot in use, until {@link #release}. */
  final class Hold {
    private final long snapshot;
    private final long sinceNanos = System.nanoTime();

    private Hold(long snapshot) {
      this.snapshot = snapshot;
    }

    void release() {
      held.remove(this);
    }
  }

  private final MasterRpc master;
  private final ClientSettings settings;
  private final long afterNanos;
  private final String leaseId = UUID.randomUUID().toString();
  private final Set<Hold> held = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private volatile boolean leased;
  private volatile boolean warned;

  SnapshotHolds(MasterRpc master, ClientSettings settings) {
    this.master = master;
    this.settings = settings;
    this.afterNanos = TimeUnit.MILLISECONDS.toNanos(settings.snapshotLeaseAfterMs());
    long checkMs = Math.max(100, Math.min(settings.snapshotLeaseAfterMs() / 2, 5000));
    this.timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("snapshot-holds"));
    timer.scheduleWithFixedDelay(this::check, checkMs, checkMs, TimeUnit.MILLISECONDS);
  }

  Hold hold(long snapshot) {
    Hold h = new Hold(snapshot);
    held.add(h);
    return h;
  }

  /** Holds (renews) the oldest snapshot open long enough, or releases the lease when none is. */
  private void check() {
    long now = System.nanoTime();
    long oldest = held.stream().filter(h -> now - h.sinceNanos >= afterNanos).mapToLong(h -> h.snapshot).min()
        .orElse(0);
    if (oldest == 0 && !leased) {
      return;
    }
    try {
      master.call("hold snapshot", settings.newDeadline(), stub -> stub.holdSnapshot(HoldSnapshotRequest.newBuilder()
          .setLeaseId(leaseId).setSnapshot(oldest).setRelease(oldest == 0).build()));
      leased = oldest != 0;
      warned = false;
    } catch (LogBaseException e) {
      if (!warned) {
        LOG.warn("could not hold snapshot {} at the master (will keep trying): {}", oldest, e.getMessage());
        warned = true;
      }
    } catch (RuntimeException e) {
      LOG.warn("holding snapshot {} failed", oldest, e);
    }
  }

  @Override
  public void close() {
    held.clear();
    timer.shutdownNow();
  }
}
