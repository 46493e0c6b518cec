package org.logbase.master;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.framework.state.ConnectionState;
import org.logbase.common.ZkPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether this master is the active one.
 *
 * <p>Masters take part in a Curator {@link LeaderLatch} on {@link ZkPaths#masters()}, each named by
 * its host:port. The latch's leader then claims the ephemeral znode {@link ZkPaths#activeMaster()}
 * (see {@link ActiveMasterZnode}), which is what clients and tablet servers read to find the active
 * master. A leader only becomes active once it holds that znode: if the previous active master's
 * znode is still there (its session has not expired yet), the new leader waits until ZooKeeper
 * removes it, so two masters never both announce themselves.
 *
 * <p>Losing the ZooKeeper connection ({@code SUSPENDED}) ends activeness at once, because another
 * master may take over once our session expires; Curator's latch gives leadership back on
 * reconnection if the session survived. Losing the session ({@code LOST}) is fatal: the
 * {@link Listener} is told, and the master exits so that an operator (or supervisor) restarts it.
 *
 * <p>Leadership changes are handled on one thread ("master-election"), in order.
 */
final class MasterElection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterElection.class);

  /** What the master does as its role changes. */
  interface Listener {
    /** Runs after this master claimed the active-master znode and before it serves as active. */
    void activating() throws Exception;

    /** Runs once this master serves as active. */
    void activated();

    /**
     * This master is not (or no longer) active: stop whatever only the active master may do. Runs
     * under the election's lock, so it must not block; it may run when nothing was active.
     */
    void deactivated();

    /** This master can no longer take part safely (session lost, takeover failed): it must exit. */
    void fatal(String reason, Throwable cause);
  }

  private final CuratorFramework zk;
  private final String mastersPath;
  private final ActiveMasterZnode activeMasterZnode;
  private final Listener listener;
  private final ExecutorService electionThread =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "master-election"));
  private final Object lock = new Object();

  private volatile String self = "";
  private volatile LeaderLatch latch;
  private volatile boolean active;
  private volatile boolean closed;
  private volatile boolean sessionLost;
  /** Bumped whenever this master stops being active, so that a takeover in progress gives up. */
  private long term; // guarded by lock

  MasterElection(CuratorFramework zk, ZkPaths paths, Listener listener) {
    this.zk = zk;
    this.mastersPath = paths.masters();
    this.activeMasterZnode = new ActiveMasterZnode(zk, paths.activeMaster());
    this.listener = listener;
  }

  /** Joins the election as {@code selfAddress} (host:port, also the latch participant id). */
  void start(String selfAddress) throws Exception {
    self = selfAddress;
    zk.getConnectionStateListenable().addListener((client, state) -> connectionChanged(state));
    activeMasterZnode.start(new ActiveMasterZnode.Watcher() {
      @Override
      public void announced(String address) {
        if (!address.equals(self)) {
          LOG.info("standing by, active master is {}", address);
        }
      }

      @Override
      public void gone(String address) {
        if (!active && !closed) {
          LOG.info("active master {} is gone; the election decides who takes over", address);
        }
      }
    });
    LeaderLatch l = new LeaderLatch(zk, mastersPath, selfAddress, LeaderLatch.CloseMode.SILENT);
    l.addListener(new LeaderLatchListener() {
      @Override
      public void isLeader() {
        becomeActive();
      }

      @Override
      public void notLeader() {
        standDown("lost the election");
      }
    }, electionThread);
    latch = l;
    l.start();
  }

  /** This master's host:port, empty before {@link #start}. */
  String self() {
    return self;
  }

  /** Whether this master is the active one now. */
  boolean isActive() {
    return active;
  }

  /** The active master's host:port as announced in ZooKeeper, if any. */
  Optional<String> activeMaster() {
    return active ? Optional.of(self) : activeMasterZnode.announced();
  }

  /** Every master taking part in the election (host:port), the leader first. */
  List<String> participants() throws Exception {
    LeaderLatch l = latch;
    return l == null ? List.of() : l.getParticipants().stream().map(Participant::getId).toList();
  }

  /**
   * Leaves the election and removes the active-master znode if this master holds it, so that a
   * standby takes over at once instead of after a session timeout.
   */
  @Override
  public void close() {
    closed = true;
    demote();
    LeaderLatch l = latch;
    if (l != null) {
      try {
        l.close();
      } catch (Exception e) {
        LOG.debug("closing the leader latch: {}", e.toString());
      }
    }
    electionThread.shutdownNow();
    try {
      electionThread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    releaseActiveMasterZnode();
    activeMasterZnode.close();
  }

  // ------------------------------------------------------------------ on the election thread

  private void becomeActive() {
    long myTerm;
    synchronized (lock) {
      myTerm = term;
    }
    try {
      if (!activeMasterZnode.claim(self, () -> isStillLeading(myTerm))) {
        return;
      }
      listener.activating();
      synchronized (lock) {
        if (!stillLeading(myTerm)) {
          // Lost it meanwhile; the notLeader or connection event that followed cleans up the
          // znode, but what activating() started must stop here, after it.
          listener.deactivated();
          return;
        }
        active = true;
      }
      LOG.info("became active master ({})", self);
      listener.activated();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      if (!closed) {
        listener.fatal("could not take over as active master", e);
      }
    }
  }

  private void standDown(String reason) {
    if (demote()) {
      LOG.warn("no longer the active master ({}): {}", self, reason);
    }
    // While disconnected this would only block the election thread; on reconnection the
    // RECONNECTED handler releases the znode instead.
    if (zk.getZookeeperClient().isConnected()) {
      releaseActiveMasterZnode();
    }
  }

  private void releaseActiveMasterZnode() {
    if (!sessionLost) { // else the znode went with the session, and calls would only wait in vain
      activeMasterZnode.release();
    }
  }

  // ------------------------------------------------------------------ state

  private boolean isStillLeading(long myTerm) {
    synchronized (lock) {
      return stillLeading(myTerm);
    }
  }

  private boolean stillLeading(long myTerm) {
    LeaderLatch l = latch;
    return term == myTerm && !closed && l != null && l.hasLeadership();
  }

  /** Stops being active at once; returns whether this master was active. */
  private boolean demote() {
    synchronized (lock) {
      term++;
      boolean was = active;
      active = false;
      // Under the lock: a takeover checks the term under it too, so the listener's last word is
      // always the right one even when a demotion races with a takeover.
      listener.deactivated();
      return was;
    }
  }

  // ------------------------------------------------------------------ ZooKeeper events

  private void connectionChanged(ConnectionState state) {
    switch (state) {
      case SUSPENDED -> {
        if (demote()) {
          LOG.warn("ZooKeeper connection suspended: no longer acting as active master until it is back");
        }
      }
      case LOST -> {
        sessionLost = true;
        demote();
        if (!closed) {
          listener.fatal("ZooKeeper session lost", null);
        }
      }
      case RECONNECTED -> {
        if (sessionLost) {
          return; // a new session; this master is stopping
        }
        LOG.info("reconnected to ZooKeeper with the same session");
        // The latch re-checks leadership by itself; if it is not given back, remove the znode this
        // master may still hold, or the new leader would wait for it forever. Queued behind any
        // takeover, so it never removes a znode this master has just claimed again.
        executeOnElectionThread(() -> {
          if (!active) {
            releaseActiveMasterZnode();
          }
        });
      }
      default -> {
        // CONNECTED (first connection) and READ_ONLY need nothing.
      }
    }
  }

  private void executeOnElectionThread(Runnable task) {
    if (!closed) {
      try {
        electionThread.execute(task);
      } catch (RejectedExecutionException shuttingDown) {
        // Closing: close() releases the znode itself.
      }
    }
  }
}
