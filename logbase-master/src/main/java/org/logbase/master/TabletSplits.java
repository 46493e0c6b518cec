package org.logbase.master;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.logbase.common.Bytes;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.LogBaseException;
import org.logbase.common.NotActiveMasterException;
import org.logbase.common.OperationFailedException;
import org.logbase.common.rpc.RpcErrors;
import org.logbase.rpc.DoneRequest;
import org.logbase.rpc.SplitIntent;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.logbase.rpc.TabletSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits a tablet in two without copying data, on the server that serves it:
 *
 * <ol>
 *   <li>the split is recorded in the tablet's assignment ({@link SplitIntent}: the daughters' ids,
 *       taken from the table's {@code next_tablet_id}, and the key if one was asked for);
 *   <li>the server stops the tablet's writes, waits for those in progress, checkpoints and closes it,
 *       and writes the daughters' manifests (each gets the parent's checkpoints and its half of the
 *       range) before it marks the parent's manifest retired; it answers the key;
 *   <li>the assignment replaces the parent by its daughters, on the same server, which opens them:
 *       from the parent's checkpoint, with the parent's records in its log routed to them by key.
 * </ol>
 *
 * <p>The intent is what makes this safe to cut short anywhere: a tablet with one is neither opened
 * by the reconciler nor moved, and {@link #resumePending} (run by the balancer's thread, and so
 * after a master failover too) asks its server to split it again. The server's answer is the same
 * if the split was done (its manifest says so), or it splits now; a server that got the tablet by
 * failover while the split was pending opens it first. So every pending split ends with the
 * daughters assigned and the parent gone from the metadata.
 */
final class TabletSplits {
  private static final Logger LOG = LoggerFactory.getLogger(TabletSplits.class);

  /** A split done: the daughters' ids, the key the right one starts at, their server. */
  record Split(int leftId, int rightId, byte[] key, String server) {}

  private final TableStore tables;
  private final LiveServers liveServers;
  private final TabletCommands commands;
  private final TabletMoves moves;
  private final Object assignmentLock;
  private final Duration commandDeadline;
  private final TableLimits limits;

  TabletSplits(TableStore tables, LiveServers liveServers, TabletCommands commands, TabletMoves moves,
      Object assignmentLock, Duration commandDeadline, TableLimits limits) {
    this.limits = limits;
    this.tables = tables;
    this.liveServers = liveServers;
    this.commands = commands;
    this.moves = moves;
    this.assignmentLock = assignmentLock;
    this.commandDeadline = commandDeadline;
  }

  /**
   * Splits one tablet at {@code key} (null: about its middle) and returns once its daughters are
   * assigned and asked to open.
   */
  Split split(String table, int tabletId, byte[] key, String requestId) throws Exception {
    synchronized (moves.serial()) {
      TableMeta meta = tables.get(table).meta();
      Split done = requestId.isEmpty() ? null : doneBy(meta, requestId);
      if (done != null) {
        LOG.info("split of tablet {} asked again by request {}: done already, into {} and {}",
            TableMetas.tabletName(table, tabletId), requestId, done.leftId(), done.rightId());
        return done;
      }
      TabletLocation t = TableMetas.tablet(meta, tabletId);
      if (t.hasMove()) {
        throw new OperationFailedException("tablet " + TableMetas.tabletName(table, tabletId) + " is being moved to "
            + t.getMove().getToServer() + "; it can be split once it is there");
      }
      if (key != null && key.length > limits.maxKeyBytes()) {
        throw new InvalidRequestException("split key has " + key.length + " bytes; a key has at most "
            + limits.maxKeyBytes() + " (" + TableLimits.MAX_KEY_BYTES + ")");
      }
      if (key != null) {
        TabletSpec s = t.getTablet();
        boolean inside = Bytes.compare(key, s.getStartKey().toByteArray()) > 0
            && (s.getEndKey().isEmpty() || Bytes.compare(key, s.getEndKey().toByteArray()) < 0);
        if (!inside) {
          throw new InvalidRequestException("split key " + Bytes.toStringBinary(key) + " is not inside tablet "
              + tabletId + " of '" + table + "' (after its first key, before its end)");
        }
      }
      if (!t.hasSplit()) {
        synchronized (assignmentLock) {
          TableMeta updated = tables.update(table, m -> withIntent(checkRoom(m, key), tabletId, key, requestId));
          t = TableMetas.tablet(updated, tabletId);
        }
      }
      return finish(table, t);
    }
  }

  /**
   * Finishes every split left pending (by a master or a server that died mid-split); returns how
   * many.
   *
   * @param all the tables as read at the start of the pass (a tablet found with an intent is read
   *     again under the lock)
   */
  int resumePending(List<TableMeta> all) throws Exception {
    int done = 0;
    Map<String, String> live = null; // read once a pass, and only when a split is pending
    for (TableMeta meta : all) {
      for (TabletLocation t : meta.getTabletsList()) {
        if (!t.hasSplit()) {
          continue;
        }
        if (live == null) {
          live = liveServers.read();
        }
        if (!live.containsKey(t.getServerId())) {
          continue; // a dead server's tablet is failover's first
        }
        synchronized (moves.serial()) {
          String table = meta.getSpec().getName();
          TabletLocation now;
          try {
            now = TableMetas.tablet(tables.get(table).meta(), t.getTablet().getTabletId());
          } catch (InvalidRequestException gone) {
            continue; // finished meanwhile
          }
          if (now.hasSplit()) {
            LOG.info("finishing the split of tablet {} left pending", TableMetas.tabletName(table, t.getTablet().getTabletId()));
            try {
              finish(table, now);
              done++;
            } catch (LogBaseException e) {
              // Tried again next pass (or forgotten, when refused); the other splits and the pass go on.
              LOG.warn("could not finish the split of tablet {} yet: {}",
                  TableMetas.tabletName(table, t.getTablet().getTabletId()), e.getMessage());
            }
          }
        }
      }
    }
    return done;
  }

  private Split finish(String table, TabletLocation t) throws Exception {
    int tabletId = t.getTablet().getTabletId();
    String name = TableMetas.tabletName(table, tabletId);
    String server = t.getServerId();
    Map<String, String> live = liveServers.read();
    String address = live.get(server);
    if (address == null) {
      throw new OperationFailedException("tablet " + name + " is on server " + server + ", which is not live: its split"
          + " is finished once failover has given it to another server");
    }
    SplitIntent intent = t.getSplit();
    TableMeta meta = tables.get(table).meta();
    byte[] at;
    TableMeta split;
    try {
      at = TabletCommands.await(commands.split(address, meta.getSpec(), t.getTablet(),
          intent.getKey().isEmpty() ? null : intent.getKey().toByteArray(), intent.getLeftId(), intent.getRightId()),
          commandDeadline, "split tablet " + name + " on " + server);
      synchronized (assignmentLock) {
        split = tables.update(table, m -> withDaughters(m, tabletId, intent, at));
      }
    } catch (LogBaseException e) {
      if (refused(e)) {
        // The server checked the key before it stopped anything: nothing was split. Forget the
        // intent, or the tablet could never move and every balancer pass would try again.
        synchronized (assignmentLock) {
          tables.update(table, m -> withoutIntent(m, tabletId, intent));
        }
        String why = ((StatusRuntimeException) e.getCause()).getStatus().getDescription();
        LOG.info("split of tablet {} refused by {}: {}; not split", name, server, why);
        throw new InvalidRequestException("tablet " + name + " was not split: " + why);
      }
      if (e instanceof NotActiveMasterException) {
        throw e; // deposed meanwhile: the client asks the new master
      }
      throw new OperationFailedException("the split of tablet " + name + " did not finish (" + e.getMessage()
          + "); it stays recorded and the master finishes it (describe the table to see)", e);
    }
    List<TabletCommands.Assignment> open = split.getTabletsList().stream()
        .filter(x -> x.getTablet().getTabletId() == intent.getLeftId() || x.getTablet().getTabletId() == intent.getRightId())
        .map(x -> TabletCommands.Assignment.of(split.getSpec(), x)).toList();
    TabletCommands.awaitWhileLive(Map.of(server, commands.open(server, address, open)), commandDeadline,
        () -> liveServers.read().keySet());
    LOG.info("split tablet {} at {} into tablets {} and {} on {}", name, Bytes.toStringBinary(at), intent.getLeftId(),
        intent.getRightId(), server);
    return new Split(intent.getLeftId(), intent.getRightId(), at, server);
  }

  /** Whether the server refused the split as asked (INVALID_REQUEST): it then split nothing. */
  private static boolean refused(LogBaseException e) {
    return e.getCause() instanceof StatusRuntimeException s
        && RpcErrors.fromStatus(s, "split") instanceof InvalidRequestException;
  }

  private static TableMeta withoutIntent(TableMeta meta, int tabletId, SplitIntent intent) {
    TableMeta.Builder b = meta.toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == tabletId && t.getSplit().equals(intent)) {
        t.clearSplit();
      }
    }
    return b.build();
  }


  /**
   * Refuses a split the metadata could not record once it is done: one tablet more than the table
   * may have, or daughters whose bounds (the key, or the longest key the server may pick) would
   * take the metadata over {@link TableStore#MAX_META_BYTES}. Checked before the intent is written,
   * since a split the server has done must be recordable.
   */
  private TableMeta checkRoom(TableMeta meta, byte[] key) {
    if (meta.getTabletsCount() + 1 > limits.maxTabletsPerTable()) {
      throw new InvalidRequestException("table '" + meta.getSpec().getName() + "' has " + meta.getTabletsCount()
          + " tablets; a table has at most " + limits.maxTabletsPerTable() + " (" + TableLimits.MAX_TABLETS_PER_TABLE
          + ")");
    }
    long keyBytes = key != null ? key.length : limits.maxKeyBytes();
    long after = meta.getSerializedSize() + 2 * keyBytes + 256;
    if (after > TableStore.MAX_META_BYTES) {
      throw new InvalidRequestException("table '" + meta.getSpec().getName() + "' cannot be split further: its"
          + " metadata would take up to " + after + " bytes, at most " + TableStore.MAX_META_BYTES
          + (key == null ? " (a split without a key reserves " + limits.maxKeyBytes() + " bytes for it)" : ""));
    }
    return meta;
  }

  /** The table's next free tablet id (older metadata has none: one above the largest). */
  static int nextTabletId(TableMeta meta) {
    int max = meta.getTabletsList().stream().mapToInt(t -> t.getTablet().getTabletId()).max().orElse(-1);
    return Math.max(meta.getNextTabletId(), max + 1);
  }

  /** The split that request {@code requestId} made, found by its daughters; null if none. */
  private static Split doneBy(TableMeta meta, String requestId) {
    List<TabletLocation> daughters = meta.getTabletsList().stream()
        .filter(t -> t.getDone().getRequestId().equals(requestId)).toList();
    if (daughters.size() != 2) {
      return null; // not split by it (or, one daughter split again since: it is not this request's any more)
    }
    TabletLocation right = daughters.get(1);
    return new Split(daughters.get(0).getTablet().getTabletId(), right.getTablet().getTabletId(),
        right.getTablet().getStartKey().toByteArray(), right.getServerId());
  }

  private static TableMeta withIntent(TableMeta meta, int tabletId, byte[] key, String requestId) {
    TableMeta.Builder b = meta.toBuilder();
    int next = nextTabletId(meta);
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      if (t.getTablet().getTabletId() == tabletId && !t.hasSplit() && !t.hasMove()) {
        SplitIntent.Builder intent = SplitIntent.newBuilder().setLeftId(next).setRightId(next + 1)
            .setRequestId(requestId);
        if (key != null) {
          intent.setKey(ByteString.copyFrom(key));
        }
        t.setSplit(intent);
        b.setNextTabletId(next + 2);
      }
    }
    return b.build();
  }

  /** The parent replaced by its daughters, in key order, if it is still there with this intent. */
  private static TableMeta withDaughters(TableMeta meta, int tabletId, SplitIntent intent, byte[] at) {
    TableMeta.Builder b = meta.toBuilder().clearTablets();
    for (TabletLocation t : meta.getTabletsList()) {
      if (t.getTablet().getTabletId() == tabletId && t.getSplit().equals(intent)) {
        TabletSpec p = t.getTablet();
        DoneRequest done = DoneRequest.newBuilder().setRequestId(intent.getRequestId()).build();
        // New tablets: their first assignment.
        b.addTablets(TabletLocation.newBuilder().setServerId(t.getServerId()).setAssignment(1).setDone(done)
            .setTablet(TabletSpec.newBuilder().setTabletId(intent.getLeftId()).setStartKey(p.getStartKey())
                .setEndKey(ByteString.copyFrom(at))));
        b.addTablets(TabletLocation.newBuilder().setServerId(t.getServerId()).setAssignment(1).setDone(done)
            .setTablet(TabletSpec.newBuilder().setTabletId(intent.getRightId()).setStartKey(ByteString.copyFrom(at))
                .setEndKey(p.getEndKey())));
      } else {
        b.addTablets(t);
      }
    }
    return b.build();
  }
}
