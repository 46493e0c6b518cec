package org.logbase.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
  private record OpenKey(String address, TableSpec table, TabletSpec tablet) {}

  private final TabletServerClients clients;
  private final Map<OpenKey, CompletableFuture<Void>> opening = new ConcurrentHashMap<>();

  TabletCommands(TabletServerClients clients) {
    this.clients = clients;
  }

  /**
   * Opens one tablet on the server at {@code address}. While the same open is still in flight (a
   * server recovering a tablet may take longer than a heartbeat interval) it is not sent again.
   */
  CompletableFuture<Void> open(String serverId, String address, TableSpec table, TabletSpec tablet) {
    OpenKey key = new OpenKey(address, table, tablet);
    CompletableFuture<Void> mine = new CompletableFuture<>();
    CompletableFuture<Void> inFlight = opening.putIfAbsent(key, mine);
    if (inFlight != null) {
      return inFlight;
    }
    String what = "OpenTablet " + TableMetas.tabletName(table.getName(), tablet.getTabletId())
        + " on server " + serverId + " (" + address + ")";
    clients.openTablet(address, table, tablet).whenComplete((ok, failure) -> {
      if (failure == null) {
        LOG.debug("{} done", what);
      } else {
        LOG.warn("{} failed: {}; it is sent again after the server's next heartbeat", what, failure.toString());
      }
      opening.remove(key, mine);
      mine.complete(null);
    });
    return mine;
  }

  /** Opens every tablet of {@code meta} whose server is live; the others wait for their server. */
  CompletableFuture<Void> openAll(TableMeta meta, Map<String, String> liveServers) {
    List<CompletableFuture<Void>> opens = new ArrayList<>();
    for (TabletLocation t : meta.getTabletsList()) {
      String address = liveServers.get(t.getServerId());
      if (address == null) {
        LOG.warn("tablet {} is assigned to server {}, which is not live; it is opened when that server"
                + " is back", TableMetas.tabletName(meta.getSpec().getName(), t.getTablet().getTabletId()),
            t.getServerId());
      } else {
        opens.add(open(t.getServerId(), address, meta.getSpec(), t.getTablet()));
      }
    }
    return CompletableFuture.allOf(opens.toArray(CompletableFuture[]::new));
  }

  /** Closes every tablet of {@code meta} on its server, where that server is live. */
  CompletableFuture<Void> closeAll(TableMeta meta, Map<String, String> liveServers) {
    List<CompletableFuture<Void>> closes = new ArrayList<>();
    String table = meta.getSpec().getName();
    for (TabletLocation t : meta.getTabletsList()) {
      String address = liveServers.get(t.getServerId());
      if (address != null) {
        closes.add(close(t.getServerId(), address, table, t.getTablet().getTabletId()));
      }
    }
    return CompletableFuture.allOf(closes.toArray(CompletableFuture[]::new));
  }

  /** Closes one tablet on the server at {@code address}. */
  CompletableFuture<Void> close(String serverId, String address, String table, int tabletId) {
    String what = "CloseTablet " + TableMetas.tabletName(table, tabletId) + " on server " + serverId
        + " (" + address + ")";
    return clients.closeTablet(address, table, tabletId).handle((ok, failure) -> {
      if (failure != null) {
        LOG.warn("{} failed: {}", what, failure.toString());
      }
      return null;
    });
  }

  /**
   * Waits up to {@code max} for commands to finish, so that a caller's next request finds its
   * tablets open; past that the commands go on in the background.
   */
  static void awaitQuietly(CompletableFuture<Void> commands, Duration max) throws InterruptedException {
    try {
      commands.get(Math.max(0, max.toMillis()), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.info("tablet servers have not answered within {} ms; the commands go on in the background",
          max.toMillis());
    } catch (ExecutionException e) {
      throw new AssertionError("tablet commands never fail", e);
    }
  }
}
