package org.logbase.tpcw.driver;

import java.util.concurrent.atomic.AtomicInteger;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.TransactionAbortedException;
import org.logbase.common.TransactionConflictException;
import org.logbase.tpcw.web.Backoff;
import org.logbase.tpcw.web.Interaction;
import org.logbase.tpcw.web.Session;
import org.logbase.tpcw.web.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One emulated browser: until the run ends, draws an interaction from the mix, thinks, and runs it
 * as a transaction (read-only ones as read-only snapshot transactions), again in a new
 * transaction after a conflict or an abort, up to the attempts allowed. Interactions that start
 * after the warm-up and end before the deadline are measured.
 */
final class Browser implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Browser.class);
  /** Errors logged with their stack trace per run (the rest are counted only). */
  private static final int LOGGED_ERRORS = 5;

  private final LogBaseClient client;
  private final Store store;
  private final Session session;
  private final RunSettings settings;
  private final RunStats stats;
  private final long measureFromNanos;
  private final long endNanos;
  private final AtomicInteger errorsLogged;

  Browser(LogBaseClient client, Store store, Session session, RunSettings settings, RunStats stats,
      long measureFromNanos, long endNanos, AtomicInteger errorsLogged) {
    this.client = client;
    this.store = store;
    this.session = session;
    this.settings = settings;
    this.stats = stats;
    this.measureFromNanos = measureFromNanos;
    this.endNanos = endNanos;
    this.errorsLogged = errorsLogged;
  }

  @Override
  public void run() {
    while (System.nanoTime() < endNanos && !Thread.currentThread().isInterrupted()) {
      Interaction i = settings.mix().pick(session.random());
      if (!think()) {
        return;
      }
      long start = System.nanoTime();
      if (start >= endNanos) {
        return;
      }
      InteractionStats counters = stats.byInteraction.get(i);
      boolean measured = start >= measureFromNanos;
      boolean done = attempt(i, measured ? counters : new InteractionStats());
      long end = System.nanoTime();
      if (done) {
        stats.completedAll.increment();
        if (measured && end <= endNanos) {
          counters.completed.increment();
          counters.latency.record(end - start);
        }
      }
    }
  }

  /** Waits a think time; false if the run ends first or the thread is interrupted. */
  private boolean think() {
    long ms = session.random().exponential(settings.thinkMs());
    if (ms == 0) {
      return true;
    }
    long left = (endNanos - System.nanoTime()) / 1_000_000;
    try {
      Thread.sleep(Math.max(0, Math.min(ms, left)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return ms < left;
  }

  /** Runs the interaction until it commits or the attempts run out; true if it committed. */
  private boolean attempt(Interaction i, InteractionStats counters) {
    for (int attempt = 0; attempt < settings.attempts(); attempt++) {
      try (Transaction t = i.readOnly() ? client.beginReadOnly() : client.begin()) {
        store.run(i, t, session);
        t.commit();
        session.keepStaged();
        return true;
      } catch (TransactionConflictException e) {
        counters.conflicts.increment();
      } catch (TransactionAbortedException e) {
        counters.aborts.increment();
      } catch (RuntimeException e) {
        session.dropStaged();
        counters.errors.increment();
        if (errorsLogged.incrementAndGet() <= LOGGED_ERRORS) {
          LOG.warn("{} failed", i.title(), e);
        }
        return false;
      }
      session.dropStaged();
      if (System.nanoTime() >= endNanos) {
        return false;
      }
      Backoff.pause(attempt);
    }
    counters.gaveUp.increment();
    return false;
  }
}
