package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.logbase.common.ServerStoppingException;
import org.logbase.common.Threads;
import org.logbase.files.FileIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long this tablet server may still answer requests without being sure its tablets are not
 * served elsewhere. The master hands a server's tablets to others only after the server's ZooKeeper
 * session expired, and ZooKeeper expires a session no sooner than its timeout after the last request
 * it received from it. So a request to ZooKeeper sent at time t that confirms this server's znode
 * (owned by this session) proves that no other server serves its tablets before t + the session
 * timeout. The lease renews itself that way several times per timeout and runs until t + 2/3 of the
 * timeout (leaving room for clocks that run at slightly different rates).
 *
 * <p>Measured on {@link System#nanoTime()}, which goes on while a process is paused: a server
 * stopped (SIGSTOP, a long GC pause) past its session timeout finds its lease lapsed the moment it
 * runs again, before its ZooKeeper client even notices the expiry, and answers nothing it computed
 * (writes made durable meanwhile are not acknowledged; the new owners replay them from the log or
 * never see them, either way nobody was told they happened). New log segments and checkpoint files
 * need the lease too ({@link #check} guards the file ids they take), so a paused server that wakes
 * up cannot start a segment its successors do not know about.
 *
 * <p>While ZooKeeper cannot be reached the lease lapses too: the server refuses requests until it
 * is reachable again, since it cannot know whether its session is about to expire.
 */
final class ServingLease implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServingLease.class);

  private final CuratorFramework zk;
  private final String znode;
  private final Runnable onLost;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("serving-lease"));
  private volatile boolean armed;
  private volatile long validUntilNanos;
  private volatile long lengthNanos;
  private volatile boolean lost;
  private boolean lapsedLogged;

  /**
   * @param znode this server's registration znode
   * @param onLost run once when the znode is found gone or owned by another session: the server stops
   */
  ServingLease(CuratorFramework zk, String znode, Runnable onLost) {
    this.zk = zk;
    this.znode = znode;
    this.onLost = onLost;
  }

  /**
   * Starts the lease once the server is registered: before that nobody can have taken over its
   * tablets (it serves none), so {@link #check} passes.
   */
  void arm() throws Exception {
    ZooKeeper handle = zk.getZookeeperClient().getZooKeeper();
    long timeoutMs = handle.getSessionTimeout();
    lengthNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs) * 2 / 3;
    if (!renew()) {
      throw new IllegalStateException("the registration znode " + znode + " of this server is not its own");
    }
    armed = true;
    long period = Math.max(50, timeoutMs / 6);
    timer.scheduleWithFixedDelay(this::renewQuietly, period, period, TimeUnit.MILLISECONDS);
    LOG.info("serving lease armed: {} ms, renewed every {} ms (ZooKeeper session timeout {} ms)",
        TimeUnit.NANOSECONDS.toMillis(lengthNanos), period, timeoutMs);
  }

  /** Throws {@link ServerStoppingException} when this server may no longer answer. */
  void check() {
    if (!armed) {
      return;
    }
    if (lost) {
      throw new ServerStoppingException("this tablet server's ZooKeeper session ended: its tablets are served elsewhere");
    }
    long late = System.nanoTime() - validUntilNanos;
    if (late > 0) {
      throw new ServerStoppingException("this tablet server has not reached ZooKeeper for "
          + TimeUnit.NANOSECONDS.toMillis(late + lengthNanos) + " ms: its tablets may be served elsewhere; try again");
    }
  }

  /**
   * Throws {@link ServerStoppingException} unless this server may answer requests: registered, and
   * the lease valid. Before it registered a server opens no tablet and writes no log record, so that
   * a dead server's log, listed while the server was not registered, holds no segment of its next
   * incarnation (docs/architecture.md, "Sealed logs").
   */
  void checkAnswering() {
    if (!armed) {
      throw new ServerStoppingException("this tablet server is starting: it has not registered yet; try again");
    }
    check();
  }

  /** Whether {@link #check} passes now. */
  boolean valid() {
    try {
      check();
      return true;
    } catch (ServerStoppingException e) {
      return false;
    }
  }

  private void renewQuietly() {
    try {
      if (!renew() && !lost) {
        lost = true;
        LOG.error("the registration znode {} is gone or belongs to another session: stopping", znode);
        onLost.run();
      }
      if (lapsedLogged && valid()) {
        LOG.info("serving lease renewed: answering requests again");
        lapsedLogged = false;
      }
    } catch (Exception e) {
      if (!lapsedLogged && !valid()) {
        LOG.warn("serving lease lapsed ({}): refusing requests until ZooKeeper answers", e.toString());
        lapsedLogged = true;
      }
    }
  }

  /** One confirmation; true when the znode is this session's. */
  private boolean renew() throws Exception {
    long sent = System.nanoTime();
    ZooKeeper handle = zk.getZookeeperClient().getZooKeeper();
    long session = handle.getSessionId();
    Stat stat = zk.checkExists().forPath(znode);
    if (stat == null || stat.getEphemeralOwner() != session) {
      return false;
    }
    long until = sent + lengthNanos;
    if (until - validUntilNanos > 0) {
      validUntilNanos = until;
    }
    return true;
  }

  /** {@code ids} that hand out no id while {@link #check} fails: no new segment or checkpoint file then. */
  FileIds guard(FileIds ids) {
    return new FileIds() {
      @Override
      public long next() throws IOException {
        try {
          check();
        } catch (ServerStoppingException e) {
          throw new IOException(e.getMessage(), e);
        }
        return ids.next();
      }

      @Override
      public void reserveAbove(long id) throws IOException {
        ids.reserveAbove(id);
      }
    };
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
