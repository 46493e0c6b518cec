package org.logbase.tabletserver.server;

import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.logbase.common.Config;
import org.logbase.common.NotServingTabletException;
import org.logbase.common.ServerBusyException;
import org.logbase.common.Threads;
import org.logbase.tablet.TabletId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scan calls open on this server, and the limits on them. A scan holds a tablet's cursors (its
 * streams, each a connection to a DataNode, and a read-ahead thread), its snapshot (compactions keep
 * what it reads) and its files (no deletion under it) from its first batch to its last, as long as
 * its client takes. At most {@code scan.max.open} (1,000) are open at once: a scan call past that is
 * refused at once with {@link ServerBusyException}, before it opens anything, and the client library
 * retries it with backoff until its deadline (a slot frees as soon as any scan ends). Once a second a
 * sweep ends:
 *
 * <ul>
 *   <li>a scan that made no progress for {@code scan.idle.timeout.ms} (60 s, as HBase's scanner
 *       lease): its client took nothing, so flow control holds its batches back (a server sends
 *       about a window's worth, 1 MiB, ahead of what the client has taken). Ended with
 *       DEADLINE_EXCEEDED, which the client library resumes at once after the last row it
 *       received, as a stream that outlived its own deadline, keeping its tablet locations. So a
 *       stalled client cannot hold the server's files and horizon for ever.
 *   <li>a scan of a tablet this server no longer serves (closed, moved, split), with a "not
 *       serving" error the client resumes where the tablet is served then: its next server knows
 *       nothing of the scan and may delete the files it reads.
 * </ul>
 */
final class OpenScans implements AutoCloseable {
  static final String IDLE_TIMEOUT_MS = "scan.idle.timeout.ms";
  static final long DEFAULT_IDLE_TIMEOUT_MS = 60_000;
  static final String MAX_OPEN = "scan.max.open";
  static final int DEFAULT_MAX_OPEN = 1000;
  private static final Logger LOG = LoggerFactory.getLogger(OpenScans.class);

  private final Set<ScanPump> open = ConcurrentHashMap.newKeySet();
  private final Predicate<TabletId> served;
  private final long idleTimeoutMs;
  private final int maxOpen;
  /** Slots of scan calls admitted and not ended: held from before a call opens its cursors until it ends. */
  private final Semaphore slots;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("scans"));

  /** @param served whether this server serves a tablet now */
  OpenScans(Predicate<TabletId> served, Config c) {
    this.served = served;
    this.idleTimeoutMs = c.getLong(IDLE_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS);
    if (idleTimeoutMs < 1) {
      throw new IllegalArgumentException(IDLE_TIMEOUT_MS + " must be at least 1, not " + idleTimeoutMs);
    }
    this.maxOpen = c.getInt(MAX_OPEN, DEFAULT_MAX_OPEN);
    if (maxOpen < 1) {
      throw new IllegalArgumentException(MAX_OPEN + " must be at least 1, not " + maxOpen);
    }
    this.slots = new Semaphore(maxOpen);
  }

  /**
   * A slot for one scan call, to close when the call ends (closing twice frees it once).
   *
   * @throws ServerBusyException if {@code scan.max.open} scans are open
   */
  Slot admit() {
    if (!slots.tryAcquire()) {
      throw new ServerBusyException("this server has " + maxOpen + " scans open, its limit (" + MAX_OPEN
          + "): the scan was refused before it began; try again when one ends");
    }
    return new Slot();
  }

  /** An admitted scan call's place among the open ones. */
  final class Slot implements AutoCloseable {
    private final AtomicBoolean closed = new AtomicBoolean();

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        slots.release();
      }
    }
  }

  /** Starts the sweeps (once a second, or more often for a shorter timeout). */
  void start() {
    long period = Math.max(10, Math.min(1000, idleTimeoutMs / 2));
    timer.scheduleWithFixedDelay(this::sweepQuietly, period, period, TimeUnit.MILLISECONDS);
  }

  void add(ScanPump p) {
    open.add(p);
  }

  void remove(ScanPump p) {
    open.remove(p);
  }

  /** How many scan calls are open: admitted and not ended (some may still be opening their cursors). */
  int size() {
    return maxOpen - slots.availablePermits();
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.warn("a sweep of the open scans failed; the next one tries again", e);
    }
  }

  /** Ends the scans past their idle limit and those of tablets this server no longer serves. */
  void sweep() {
    long now = System.nanoTime();
    for (ScanPump p : open) {
      try {
        sweep(p, now);
      } catch (RuntimeException e) { // one scan's failure does not keep the others from their limits
        LOG.warn("ending a scan of tablet {} failed: {}", p.tablet(), e.toString());
        open.remove(p);
      }
    }
  }

  private void sweep(ScanPump p, long now) {
    TabletId t = p.tablet();
    if (!served.test(t)) {
      p.expire(new NotServingTabletException("tablet " + t + " closed on this server during the scan;"
          + " resume where it is served now"));
    } else if (p.endIfIdle(now, TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs), () -> Status.DEADLINE_EXCEEDED
        .withDescription("the scan of tablet " + t + " made no progress for " + idleTimeoutMs + " ms ("
            + IDLE_TIMEOUT_MS + "): its client took no batch; the server closed it")
        .asRuntimeException())) {
      LOG.info("closed a scan of tablet {} whose client took nothing for {} ms", t, idleTimeoutMs);
    }
  }

  @Override
  public void close() {
    Threads.stop(timer, 10);
  }
}
