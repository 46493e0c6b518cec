package org.logbase.tabletserver.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Predicate;
import org.logbase.common.Echo;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.ServerStoppingException;
import org.logbase.common.Threads;
import org.logbase.tablet.TabletDescriptor;
import org.logbase.tabletserver.StorageEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the tablets the master assigns, on one thread, many at a time: the requests that arrive
 * while a batch is being opened are opened together next, with one replay of the log for all of
 * them. No gRPC thread waits for an opening (the reply is sent when its batch is done), so a flood of
 * requests (a table with thousands of tablets, a restart) costs queue entries, not threads. It
 * also keeps the {@link AssignmentFence}: an open of an assignment closed here is refused, and a
 * close waits for the opens admitted before it.
 */
final class TabletOpener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TabletOpener.class);

  /**
   * Tablets admitted to open, those refused at once as stale, and the answer: the tablets of the
   * request left out (refused as stale, or not what the assignment says when its batch opened).
   */
  private record Request(List<Assigned> tablets, List<Assigned> stale, CompletableFuture<List<TabletDescriptor>> done) {
    /** Completes with the tablets not among {@code opened} (an identity set of a batch's tablets). */
    void completeOpened(Set<Assigned> opened) {
      List<TabletDescriptor> leftOut = new ArrayList<>();
      stale.forEach(a -> leftOut.add(a.tablet()));
      tablets.stream().filter(a -> !opened.contains(a)).forEach(a -> leftOut.add(a.tablet()));
      done.complete(leftOut);
    }
  }

  private static final Request STOP = new Request(List.of(), List.of(), new CompletableFuture<>());

  private final StorageEngine engine;
  private final Assignments assignments;
  private final BlockingQueue<Request> queue = new LinkedBlockingQueue<>();
  /** The newest assignment of each tablet closed here; its lock also guards admitting to {@link #pending}. */
  private final AssignmentFence fence = new AssignmentFence();
  /** Requests admitted: queued or being opened (until their future completes). */
  private final Set<Request> pending = ConcurrentHashMap.newKeySet();
  private final Thread thread;
  private boolean closed; // guarded by fence

  TabletOpener(StorageEngine engine, Assignments assignments) {
    this.engine = engine;
    this.assignments = assignments;
    this.thread = Threads.newDaemon("tablet-opener", this::run);
    this.thread.start();
  }

  /** A tablet the master asks this server to open, and the assignment it opens (0: none named). */
  record Assigned(TabletDescriptor tablet, long assignment) {}

  /**
   * The cluster's record of who serves which tablet ({@link ZooKeeperAssignments}): consulted
   * just before a batch opens, so an open the assignment has moved past is left out however it
   * reached this server (this process never had the close that fences it).
   */
  interface Assignments {
    /**
     * The opens of {@code asked} (the same instances) that the assignment gives this server now;
     * those naming none (0) are kept.
     */
    List<Assigned> current(List<Assigned> asked) throws IOException;
  }

  /**
   * Queues tablets to open, leaving out those whose assignment was closed here already (stale
   * opens, see {@link AssignmentFence}); completes when they serve (or the batch they were opened
   * in failed), with the tablets left out: stale, or not what the assignment gives this server when
   * their batch opens ({@link Assignments#current}). Admitting an open and recording it as pending
   * are one step under the fence's lock, so a close either refuses the open or finds it pending and
   * waits for it ({@link #closing}).
   */
  CompletableFuture<List<TabletDescriptor>> open(List<Assigned> tablets) {
    synchronized (fence) {
      if (closed) {
        return CompletableFuture.failedFuture(new ServerStoppingException("tablet server is stopping"));
      }
      List<Assigned> admitted = new ArrayList<>(tablets.size());
      List<Assigned> stale = new ArrayList<>();
      for (Assigned a : tablets) {
        TabletDescriptor d = a.tablet();
        String refused = fence.refusal(d.schema().id(), d.tabletId(), a.assignment());
        if (refused == null) {
          admitted.add(a);
        } else {
          LOG.warn("refused a stale open of tablet {} of '{}' (table id {}, assignment {}): {}", d.tabletId(),
              Echo.of(d.schema().name()), d.schema().id(), a.assignment(), refused);
          stale.add(a);
        }
      }
      Request r = new Request(List.copyOf(admitted), List.copyOf(stale), new CompletableFuture<>());
      if (admitted.isEmpty()) {
        r.completeOpened(Set.of()); // nothing to open: every open refused as stale
        return r.done();
      }
      pending.add(r);
      r.done().whenComplete((v, e) -> pending.remove(r));
      queue.add(r); // under the lock too: never behind the STOP that close() queues
      return r.done();
    }
  }

  /**
   * Records that the tablet's {@code assignment} is being closed here (an open of it or an older
   * one is refused from now on) and completes once every open of the tablet admitted before has
   * finished, whether it succeeded or not. A close waits for this before it looks for the tablet: a
   * close that found it not open yet, while an admitted open of it was still to come, would let that
   * open serve it afterwards, on this server and on the one it was moved to.
   */
  CompletableFuture<Void> closing(String table, int tableId, int tabletId, long assignment) {
    synchronized (fence) {
      fence.closed(tableId, tabletId, assignment);
      return pendingOpens(d -> d.tabletId() == tabletId && d.schema().name().equals(table)
          && (tableId == 0 || d.schema().id() == tableId));
    }
  }

  /** Records that table {@code tableId} was dropped: every open of its tablets is refused from now on. */
  void fenceDropped(int tableId) {
    synchronized (fence) {
      fence.dropped(tableId);
    }
  }

  /**
   * Records that table {@code tableId} was dropped (every open of its tablets is refused from now on,
   * whatever its assignment) and completes once every open of its tablets admitted before has
   * finished, so that the closes that follow see every tablet of it this server will serve.
   */
  CompletableFuture<Void> tableDropped(int tableId) {
    synchronized (fence) {
      fence.dropped(tableId);
      return pendingOpens(d -> d.schema().id() == tableId);
    }
  }

  /** Completes once the admitted opens with a tablet {@code which} matches have finished, failed or not. */
  private CompletableFuture<Void> pendingOpens(Predicate<TabletDescriptor> which) {
    List<CompletableFuture<Void>> opens = new ArrayList<>();
    for (Request r : pending) {
      if (r.tablets().stream().map(Assigned::tablet).anyMatch(which)) {
        opens.add(r.done().handle((v, e) -> null));
      }
    }
    return CompletableFuture.allOf(opens.toArray(CompletableFuture[]::new));
  }

  private void run() {
    while (true) {
      List<Request> batch = new ArrayList<>();
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        return;
      }
      queue.drainTo(batch);
      boolean stop = batch.remove(STOP);
      List<Assigned> all = new ArrayList<>();
      batch.forEach(r -> all.addAll(r.tablets()));
      if (!all.isEmpty()) {
        try {
          Set<Assigned> opened = openCurrent(all);
          batch.forEach(r -> r.completeOpened(opened));
        } catch (InvalidRequestException e) {
          // One bad request must not fail the others it was batched with: each on its own.
          batch.forEach(this::openAlone);
        } catch (Exception | Error e) {
          LOG.warn("opening {} tablets failed: {}", all.size(), e.toString());
          batch.forEach(r -> r.done().completeExceptionally(e));
        }
      }
      if (stop) {
        failQueued();
        return;
      }
    }
  }

  /** Opens those of {@code asked} that the assignment gives this server now; returns them (an identity set). */
  private Set<Assigned> openCurrent(List<Assigned> asked) throws IOException {
    List<Assigned> current = assignments.current(asked);
    engine.openTablets(current.stream().map(Assigned::tablet).toList());
    Set<Assigned> opened = Collections.newSetFromMap(new IdentityHashMap<>());
    opened.addAll(current);
    return opened;
  }

  private void openAlone(Request r) {
    try {
      r.completeOpened(openCurrent(r.tablets()));
    } catch (Exception | Error e) {
      r.done().completeExceptionally(e);
    }
  }

  private void failQueued() {
    List<Request> left = new ArrayList<>();
    queue.drainTo(left);
    left.forEach(r -> r.done().completeExceptionally(new ServerStoppingException("tablet server is stopping")));
  }

  /** Finishes the batch being opened, refuses the rest. */
  @Override
  public void close() throws InterruptedException {
    synchronized (fence) {
      closed = true;
      queue.add(STOP);
    }
    thread.join(60_000);
  }
}
