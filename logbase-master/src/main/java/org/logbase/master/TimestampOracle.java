package org.logbase.master;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.Threads;
import org.logbase.common.TimestampRequests;
import org.logbase.common.TimestampsUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's timestamp oracle, hosted by the active master: hands out strictly increasing hybrid
 * timestamps ({@code (wall ms << 16) | counter}) from memory, always below an upper bound persisted
 * in a {@link TimestampBoundStore}.
 *
 * <p>The rules that keep timestamps from ever going backwards, across failovers too:
 * <ul>
 *   <li>No timestamp at or above the persisted bound is ever handed out. A request that would reach
 *       it (the wall clock jumped ahead, or the counter ran faster than the bound) waits for the
 *       bound to be raised.
 *   <li>The bound is only changed by compare-and-set. A master taking over ({@link #activate})
 *       reads the bound, persists a new one in place of exactly what it read, and only then starts,
 *       strictly above what it read, even if its own clock is behind. An old master's renewal that
 *       lands first makes that write fail, and the new master reads again; one that lands later
 *       fails itself, and the old oracle stops. So every timestamp of the old master is below the
 *       first of the new one.
 *   <li>Losing the active role ({@link #deactivate}) stops the hand-out at once, and waiting
 *       requests fail with {@link NotActiveMasterException} (clients then find the new master).
 *       So does losing the connection to ZooKeeper, even before the election hears of it: when a
 *       session is expired on the server, a standby can take over within milliseconds.
 * </ul>
 *
 * <p>Renewal runs on a thread of its own ("timestamp-bound-renewer"), ahead of time as
 * {@link BoundPolicy} says, so in steady state requests never wait on ZooKeeper; they only take
 * a lock and move a counter.
 */
final class TimestampOracle implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TimestampOracle.class);
  /** What {@link #tryNext} returns when the bound must be raised first; never a timestamp. */
  static final long WOULD_WAIT = -1;
  /** Pause after a failed renewal: ZooKeeper is reconnecting or slow, do not hammer it. */
  private static final long RETRY_PAUSE_MS = 100;

  private final TimestampBoundStore store;
  private final LongSupplier wallMillis;
  private final BoundPolicy policy;
  private final ReentrantLock lock = new ReentrantLock();
  /** The renewer's wake-up: a renewal is wanted, the role changed, or the oracle closes. */
  private final Condition renewerWake = lock.newCondition();
  /** Waiting requests' wake-up: the bound rose, or the oracle stopped. */
  private final Condition boundChanged = lock.newCondition();
  private final Thread renewer;

  // All guarded by lock.
  /** Bumped by every activation and deactivation, so that work begun under an old one is dropped. */
  private long term;
  private boolean serving;
  private boolean closed;
  private boolean renewalWanted;
  /** The last timestamp handed out, or the bound read at activation: the next one is above it. */
  private long last;
  /** The persisted bound: everything handed out is below it. */
  private long bound;
  private int boundVersion;

  /**
   * @param wallMillis the wall clock in milliseconds (injected so tests can put it behind or ahead)
   */
  TimestampOracle(TimestampBoundStore store, LongSupplier wallMillis, BoundPolicy policy) {
    this.store = store;
    this.wallMillis = wallMillis;
    this.policy = policy;
    this.renewer = Threads.newDaemon("timestamp-bound-renewer", this::renewLoop);
    renewer.start();
  }

  /**
   * Makes this oracle the cluster's. Reads the persisted bound, persists a new one in its place and
   * then serves timestamps strictly above the one it read. Returns without serving if
   * {@link #deactivate} was called meanwhile.
   */
  void activate() throws Exception {
    long myTerm;
    lock.lock();
    try {
      myTerm = ++term;
      serving = false;
    } finally {
      lock.unlock();
    }
    while (isTerm(myTerm)) {
      Optional<TimestampBoundStore.Versioned> stored = store.read();
      long floor = stored.map(TimestampBoundStore.Versioned::bound).orElse(0L);
      long newBound = policy.nextBound(wallMillis.getAsLong(), floor);
      int version;
      try {
        version = store.write(newBound, stored.map(TimestampBoundStore.Versioned::version)
            .orElse(TimestampBoundStore.NONE));
      } catch (TimestampBoundStore.ConflictException e) {
        // The previous master renewed once more before it stood down: start above that instead.
        LOG.info("timestamp bound changed while taking over; reading it again");
        continue;
      }
      lock.lock();
      try {
        if (term != myTerm) {
          return; // stood down meanwhile; the bound written is only higher, which is harmless
        }
        last = Math.max(last, floor); // its own earlier timestamps are below the floor too, but cheap to be sure
        bound = newBound;
        boundVersion = version;
        renewalWanted = false;
        serving = true;
        renewerWake.signalAll();
      } finally {
        lock.unlock();
      }
      LOG.info("timestamp oracle serving above the bound it found, {} ({}), below the new bound {} ({})",
          floor, HybridTimestamp.toString(floor), newBound, HybridTimestamp.toString(newBound));
      return;
    }
  }

  /** Stops handing out timestamps at once; requests waiting for a renewal fail. Idempotent. */
  void deactivate() {
    lock.lock();
    try {
      term++;
      if (serving) {
        LOG.info("timestamp oracle stopped at {}", last);
      }
      serving = false;
      boundChanged.signalAll();
      renewerWake.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands out {@code count} consecutive timestamps, each greater than every one handed out before,
   * and returns the first. Waits, at most {@code maxWait}, when the range would reach the bound.
   *
   * @throws NotActiveMasterException if this oracle is not serving (or stops while waiting)
   * @throws TimestampsUnavailableException if the bound was not raised within {@code maxWait}
   */
  long next(int count, Duration maxWait) throws InterruptedException {
    TimestampRequests.checkCount(count);
    long waitNanos = maxWait.toNanos();
    lock.lock();
    try {
      while (true) {
        long first = takeLocked(count);
        if (first != WOULD_WAIT) {
          return first;
        }
        if (waitNanos <= 0) {
          throw new TimestampsUnavailableException("the timestamp bound was not renewed in ZooKeeper within "
              + maxWait.toMillis() + " ms; retry");
        }
        waitNanos = boundChanged.awaitNanos(waitNanos);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Like {@link #next} but never waits: returns {@link #WOULD_WAIT} (and asks for a renewal) when
   * the range would reach the bound. For callers on a network thread, which must not block.
   */
  long tryNext(int count) {
    TimestampRequests.checkCount(count);
    lock.lock();
    try {
      return takeLocked(count);
    } finally {
      lock.unlock();
    }
  }

  /** The first of {@code count} timestamps below the bound, or {@link #WOULD_WAIT}. Holds the lock. */
  private long takeLocked(int count) {
    if (!serving) {
      throw new NotActiveMasterException("this master's timestamp oracle is not active");
    }
    if (!store.connected()) {
      throw new NotActiveMasterException("this master lost its connection to ZooKeeper; its timestamp oracle"
          + " pauses until it is back or another master takes over");
    }
    long now = wallMillis.getAsLong();
    long first = Math.max(last + 1, HybridTimestamp.of(now, 0));
    if (first + count <= bound) {
      last = first + count - 1;
      if (!renewalWanted && policy.millisUntilRenewal(now, last, bound) <= 0) {
        // The counter ran ahead of the clock, so the renewer's own schedule is too late.
        wantRenewal();
      }
      return first;
    }
    wantRenewal();
    return WOULD_WAIT;
  }

  /** Stops serving and ends the renewer thread. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
    } finally {
      lock.unlock();
    }
    deactivate();
    renewer.interrupt();
    try {
      renewer.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void wantRenewal() {
    renewalWanted = true;
    renewerWake.signalAll();
  }

  private boolean isTerm(long t) {
    lock.lock();
    try {
      return term == t;
    } finally {
      lock.unlock();
    }
  }

  // ------------------------------------------------------------------ on the renewer thread

  private void renewLoop() {
    lock.lock();
    try {
      while (!closed) {
        if (!serving) {
          renewerWake.await();
          continue;
        }
        long now = wallMillis.getAsLong();
        long dueInMs = policy.millisUntilRenewal(now, last, bound);
        if (!renewalWanted && dueInMs > 0) {
          renewerWake.await(dueInMs, TimeUnit.MILLISECONDS);
        } else if (!renew(now)) {
          renewerWake.await(RETRY_PAUSE_MS, TimeUnit.MILLISECONDS);
        }
      }
    } catch (InterruptedException closing) {
      // close() interrupts; nothing to finish.
    } finally {
      lock.unlock();
    }
  }

  /**
   * Persists a bound further ahead. Called with the lock held; releases it during the write, so
   * requests go on being served below the current bound meanwhile. Returns false if the write
   * failed and should be tried again.
   */
  private boolean renew(long now) throws InterruptedException {
    long myTerm = term;
    int version = boundVersion;
    long newBound = policy.nextBound(now, last);
    Exception failure = null;
    int written = 0;
    lock.unlock();
    try {
      written = store.write(newBound, version);
    } catch (Exception e) {
      failure = e;
    } finally {
      lock.lock();
    }
    if (failure instanceof InterruptedException interrupted) {
      throw interrupted;
    }
    if (term != myTerm) {
      return true; // stood down or taken over again meanwhile: this write's outcome no longer matters
    }
    if (failure instanceof TimestampBoundStore.ConflictException) {
      // Another master moved the bound, so it is handing out timestamps: ours must stop now.
      LOG.error("timestamp oracle stops: {}", failure.getMessage());
      deactivate();
      return true;
    }
    if (failure != null) {
      LOG.warn("could not renew the timestamp bound (retrying): {}", failure.toString());
      return false;
    }
    bound = newBound;
    boundVersion = written;
    renewalWanted = false;
    boundChanged.signalAll();
    return true;
  }
}
