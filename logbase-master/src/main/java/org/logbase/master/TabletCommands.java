package org.logbase.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.logbase.common.Failures;
import org.logbase.common.LogBaseException;
import org.logbase.rpc.CloseTabletResponse;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TableSpec;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells tablet servers to open and close the tablets assigned to them. A failed command is logged,
 * never thrown: the assignment in ZooKeeper is the truth, and the heartbeat reconciliation (see
 * {@link AssignmentReconciler}) sends an open again until the server reports the tablet. So the
 * futures returned here always complete normally, once the command succeeded or failed.
 */
final class TabletCommands {
  private static final Logger LOG = LoggerFactory.getLogger(TabletCommands.class);

  /** An open in flight; the schema is part of it, so a re-open with a newer schema is sent anew. */
  private record OpenKey(String address, TableSpec table, TabletSpec tablet, long assignment) {}

  private final TabletServerClients clients;
  private final Map<OpenKey, CompletableFuture<Void>> opening = new ConcurrentHashMap<>();
  /** Tablets per OpenTablets request: a restart's worth in one, a huge table in a few. */
  static final int MAX_TABLETS_PER_REQUEST = 1000;

  TabletCommands(TabletServerClients clients) {
    this.clients = clients;
  }

  /**
   * A tablet to open: its table's current schema, the tablet, and its assignment version
   * ({@code TabletLocation.assignment}: a server refuses an open no newer than a close it had).
   */
  record Assignment(TableSpec table, TabletSpec tablet, long version) {
    static Assignment of(TableSpec table, TabletLocation t) {
      return new Assignment(table, t.getTablet(), t.getAssignment());
    }
  }

  /**
   * Opens tablets on the server at {@code address}, as few requests as possible (the server opens
   * each request's tablets in one pass over its log). An open still in flight (a server recovering
   * may take longer than a heartbeat interval) is not sent again.
   */
  CompletableFuture<Void> open(String serverId, String address, List<Assignment> tablets) {
    List<OpenKey> mine = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    List<CompletableFuture<Void>> waits = new ArrayList<>();
    for (Assignment a : tablets) {
      OpenKey key = new OpenKey(address, a.table(), a.tablet(), a.version());
      CompletableFuture<Void> inFlight = opening.putIfAbsent(key, done);
      if (inFlight == null) {
        mine.add(key);
      } else {
        waits.add(inFlight);
      }
    }
    for (int from = 0; from < mine.size(); from += MAX_TABLETS_PER_REQUEST) {
      List<OpenKey> chunk = mine.subList(from, Math.min(mine.size(), from + MAX_TABLETS_PER_REQUEST));
      List<OpenTabletRequest> requests = new ArrayList<>(chunk.size());
      chunk.forEach(k -> requests.add(OpenTabletRequest.newBuilder().setTable(k.table()).setTablet(k.tablet())
          .setAssignment(k.assignment()).build()));
      String what = "OpenTablets (" + chunk.size() + " tablets, e.g. "
          + TableMetas.tabletName(chunk.get(0).table().getName(), chunk.get(0).tablet().getTabletId())
          + ") on server " + serverId + " (" + address + ")";
      CompletableFuture<Void> sent = new CompletableFuture<>();
      waits.add(sent);
      clients.openTablets(address, requests).whenComplete((leftOut, failure) -> {
        if (failure == null && leftOut.isEmpty()) {
          LOG.debug("{} done", what);
        } else if (failure == null) {
          LOG.warn("{}: the server left out {} of them (e.g. {}): closed there since, or assigned otherwise in"
              + " ZooKeeper by then; each is opened where the metadata says after that server's next heartbeat",
              what, leftOut.size(), TableMetas.tabletName(leftOut.get(0).getTable(), leftOut.get(0).getTabletId()));
        } else {
          LOG.warn("{} failed: {}; it is sent again after the server's next heartbeat", what, failure.toString());
        }
        chunk.forEach(k -> opening.remove(k, done));
        sent.complete(null);
      });
    }
    CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> done.complete(null));
    return done;
  }

  /** Opens every tablet of the tables whose server is live, one batch per server; the others wait for their server. */
  Map<String, CompletableFuture<Void>> openAll(List<TableMeta> metas, Map<String, String> liveServers) {
    Map<String, List<Assignment>> byServer = new LinkedHashMap<>();
    for (TableMeta meta : metas) {
      for (TabletLocation t : meta.getTabletsList()) {
        if (TableMetas.changing(t)) {
          continue; // a pending move or split is finished by TabletMoves or TabletSplits, which open it
        }
        if (liveServers.containsKey(t.getServerId())) {
          byServer.computeIfAbsent(t.getServerId(), s -> new ArrayList<>()).add(Assignment.of(meta.getSpec(), t));
        } else {
          LOG.warn("tablet {} is assigned to server {}, which is not live; it is opened when that server"
                  + " is back", TableMetas.tabletName(meta.getSpec().getName(), t.getTablet().getTabletId()),
              t.getServerId());
        }
      }
    }
    Map<String, CompletableFuture<Void>> opens = new LinkedHashMap<>();
    byServer.forEach((server, tablets) -> opens.put(server, open(server, liveServers.get(server), tablets)));
    return opens;
  }

  /** Opens every tablet of {@code meta} whose server is live: each server's opens as one future. */
  Map<String, CompletableFuture<Void>> openAll(TableMeta meta, Map<String, String> liveServers) {
    return openAll(List.of(meta), liveServers);
  }

  /** Closes every tablet of {@code meta} on its server, where that server is live: each server's closes as one future. */
  Map<String, CompletableFuture<Void>> closeAllByServer(TableMeta meta, Map<String, String> liveServers) {
    Map<String, List<CompletableFuture<Void>>> closes = new LinkedHashMap<>();
    String table = meta.getSpec().getName();
    for (TabletLocation t : meta.getTabletsList()) {
      String address = liveServers.get(t.getServerId());
      if (address != null) {
        closes.computeIfAbsent(t.getServerId(), s -> new ArrayList<>()).add(close(t.getServerId(), address, table,
            meta.getSpec().getId(), t.getTablet().getTabletId(), t.getAssignment()));
      }
    }
    Map<String, CompletableFuture<Void>> out = new LinkedHashMap<>();
    closes.forEach((server, fs) -> out.put(server, CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new))));
    return out;
  }

  /**
   * Closes a tablet that is to move: unlike the other commands, the future fails when the server
   * did not close it (it still serves it then, or it closed it and the reconciler opens it there
   * again: either way the tablet stays where it is).
   */
  CompletableFuture<CloseTabletResponse> closeToMove(String address, String table, int tableId, int tabletId,
      long assignment) {
    return clients.closeTablet(address, table, tableId, tabletId, assignment, false);
  }

  /**
   * Opens one moved tablet; the future fails when the server did not open it, or left it out (the
   * assignment it found in ZooKeeper was not this one any more).
   */
  CompletableFuture<Void> openMoved(String address, Assignment a) {
    return clients.openTablets(address, List.of(OpenTabletRequest.newBuilder().setTable(a.table())
        .setTablet(a.tablet()).setAssignment(a.version()).build())).thenApply(leftOut -> {
          if (!leftOut.isEmpty()) {
            throw new CompletionException(new LogBaseException("the server left the open out: the tablet was closed"
                + " there since, or ZooKeeper assigned it otherwise by then"));
          }
          return null;
        });
  }

  /** Asks a server to split a tablet; the future fails when it did not. */
  CompletableFuture<byte[]> split(String address, TableSpec table, TabletSpec tablet, byte[] key, int leftId,
      int rightId) {
    return clients.splitTablet(address, table, tablet, key, leftId, rightId);
  }

  /**
   * Closes one tablet of a dropped table on the server at {@code address}, without a checkpoint
   * (nobody opens it again); opens of {@code assignment} or older are refused there after.
   */
  CompletableFuture<Void> close(String serverId, String address, String table, int tableId, int tabletId,
      long assignment) {
    String what = "CloseTablet " + TableMetas.tabletName(table, tabletId) + " on server " + serverId
        + " (" + address + ")";
    return clients.closeTablet(address, table, tableId, tabletId, assignment, true).handle((ok, failure) -> {
      if (failure != null) {
        LOG.warn("{} failed: {}", what, failure.toString());
      }
      return null;
    });
  }

  /**
   * The answer of one command that must succeed (a move's close, a split): its failure, or no answer
   * within {@code max}, is thrown as a {@link LogBaseException} saying what failed.
   */
  static <T> T await(CompletableFuture<T> command, Duration max, String what) throws InterruptedException {
    try {
      return command.get(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new LogBaseException(what + ": no answer within " + max.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = Failures.cause(e, what);
      throw new LogBaseException(what + " failed: " + cause.getMessage(), cause);
    }
  }

  /**
   * Waits at most {@code max} for each server's commands, so that a caller's next request finds its
   * tablets open (or closed); past that the commands go on in the background. Not for a server no
   * longer live (its session expired: paused, cut off or dead, it serves nothing now), checked every
   * quarter second: its tablets are the failover's.
   */
  static void awaitWhileLive(Map<String, CompletableFuture<Void>> byServer, Duration max, LiveCheck live)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    Map<String, CompletableFuture<Void>> waiting = new LinkedHashMap<>(byServer);
    while (true) {
      waiting.values().removeIf(CompletableFuture::isDone);
      if (waiting.isEmpty()) {
        return;
      }
      Set<String> liveNow;
      try {
        liveNow = live.ids();
      } catch (Exception e) {
        // ZooKeeper not reached for the moment: wait on for everyone (the command itself is done)
        LOG.debug("live servers not known now ({}); waiting on", e.toString());
        liveNow = Set.copyOf(waiting.keySet());
      }
      Set<String> stillLive = liveNow;
      waiting.keySet().removeIf(server -> !stillLive.contains(server));
      long left = deadline - System.nanoTime();
      if (waiting.isEmpty() || left <= 0) {
        if (!waiting.isEmpty()) {
          LOG.info("tablet servers {} have not answered within {} ms; the commands go on in the background",
              waiting.keySet(), max.toMillis());
        }
        return;
      }
      try {
        CompletableFuture.allOf(waiting.values().toArray(CompletableFuture[]::new))
            .get(Math.min(left, TimeUnit.MILLISECONDS.toNanos(250)), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        // look at who is still live, and wait on
      } catch (ExecutionException e) {
        throw new AssertionError("tablet commands never fail", e);
      }
    }
  }

  /** The ids of the live servers now. */
  interface LiveCheck {
    Set<String> ids() throws Exception;
  }


}
