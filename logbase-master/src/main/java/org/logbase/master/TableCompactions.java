package org.logbase.master;

import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.CompactTableResponse;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletCompaction;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction on demand: asks the server of each tablet of a table to compact it now
 * ({@code TabletAdminService.CompactTablet}), the servers in parallel and one tablet at a time on
 * each, and answers every tablet's outcome: its numbers, or why it was not compacted (its server is
 * not live, refused or failed it, or did not answer in time). One tablet's failure does not stop
 * the others.
 */
final class TableCompactions {
  private static final Logger LOG = LoggerFactory.getLogger(TableCompactions.class);

  private final TableStore tables;
  private final LiveServers liveServers;
  private final TabletServerClients clients;

  TableCompactions(TableStore tables, LiveServers liveServers, TabletServerClients clients) {
    this.tables = tables;
    this.liveServers = liveServers;
    this.clients = clients;
  }

  /** Compacts every tablet of {@code table}, waiting at most {@code max} for the servers. */
  CompactTableResponse compact(String table, Duration max) throws Exception {
    TableMeta meta = tables.get(table).meta();
    Map<String, String> live = liveServers.read();
    long end = System.nanoTime() + max.toNanos();
    Map<Integer, TabletCompaction> done = new ConcurrentHashMap<>();
    Map<String, CompletableFuture<Void>> byServer = new LinkedHashMap<>();
    for (TabletLocation t : meta.getTabletsList()) {
      int id = t.getTablet().getTabletId();
      String server = t.getServerId();
      TabletCompaction.Builder outcome = TabletCompaction.newBuilder().setTabletId(id).setServerId(server);
      String address = live.get(server);
      if (address == null) {
        done.put(id, outcome.setError("its server " + server + " is not live").build());
        continue;
      }
      // One tablet at a time per server: the next is asked once the one before has answered.
      CompletableFuture<Void> before = byServer.getOrDefault(server, CompletableFuture.completedFuture(null));
      byServer.put(server, before.thenCompose(v -> {
        if (System.nanoTime() >= end) {
          done.put(id, outcome.setError("not asked: the wait of " + max.toMillis() + " ms ran out while its server"
              + " compacted the tablets before it").build());
          return CompletableFuture.<Void>completedFuture(null);
        }
        return clients.compactTablet(address, table, id, remaining(end)).handle((stats, failure) -> {
          done.put(id, failure == null ? outcome.setStats(stats).build()
              : outcome.setError(reason(failure, table, id)).build());
          return null;
        });
      }));
    }
    awaitAll(byServer.values(), end);
    CompactTableResponse.Builder out = CompactTableResponse.newBuilder();
    for (TabletLocation t : meta.getTabletsList()) {
      int id = t.getTablet().getTabletId();
      out.addTablets(done.getOrDefault(id, TabletCompaction.newBuilder().setTabletId(id)
          .setServerId(t.getServerId()).setError("no answer within " + max.toMillis()
              + " ms; its server may still be compacting it").build()));
    }
    CompactTableResponse response = out.build();
    long failed = response.getTabletsList().stream().filter(c -> !c.getError().isEmpty()).count();
    LOG.info("compaction of table '{}': {} tablets compacted, {} not", table, response.getTabletsCount() - failed,
        failed);
    return response;
  }

  private static Duration remaining(long endNanos) {
    return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
  }

  private static void awaitAll(Iterable<CompletableFuture<Void>> chains, long endNanos) throws InterruptedException {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    chains.forEach(all::add);
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
          .get(Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      LOG.info("tablet servers have not finished compacting within the wait; the rest go on in the background");
    } catch (ExecutionException e) {
      throw new AssertionError("each tablet's failure is handled in its chain", e);
    }
  }

  /** Why a tablet's compaction failed, as its server or the transport said it. */
  private static String reason(Throwable failure, String table, int tabletId) {
    Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    String what = "compact tablet " + TableMetas.tabletName(table, tabletId);
    return t instanceof StatusRuntimeException s ? RpcErrors.fromStatus(s, what).getMessage() : t.toString();
  }
}
