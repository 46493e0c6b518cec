package org.logbase.master;

import com.google.protobuf.ByteString;
import java.util.Map;
import org.logbase.common.Echo;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.BalancerRequest;
import org.logbase.rpc.BalancerResponse;
import org.logbase.rpc.DecommissionRequest;
import org.logbase.rpc.DecommissionResponse;
import org.logbase.rpc.MoveTabletRequest;
import org.logbase.rpc.MoveTabletResponse;
import org.logbase.rpc.SplitRequest;
import org.logbase.rpc.SplitResponse;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The operator's commands about where tablets are served: move, the balancer switch, decommission. */
final class ClusterAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterAdmin.class);
  /** Longest server id accepted (ids name znodes and directories). */
  static final int MAX_SERVER_ID = 128;

  private final TableStore tables;
  private final LiveServers liveServers;
  private final DrainingServers draining;
  private final BalancerSwitch balancer;
  private final TabletMoves moves;
  private final TabletSplits splits;

  ClusterAdmin(TableStore tables, LiveServers liveServers, DrainingServers draining, BalancerSwitch balancer,
      TabletMoves moves, TabletSplits splits) {
    this.splits = splits;
    this.tables = tables;
    this.liveServers = liveServers;
    this.draining = draining;
    this.balancer = balancer;
    this.moves = moves;
  }

  MoveTabletResponse move(MoveTabletRequest r) throws Exception {
    if (!r.getServerId().isEmpty()) {
      checkServerId(r.getServerId());
    }
    TabletMoves.Moved m = moves.move(r.getTable(), r.getTabletId(), r.getServerId(), r.getRequestId());
    return MoveTabletResponse.newBuilder().setFromServer(m.from()).setToServer(m.to())
        .setUnavailableMs(m.unavailableMs()).build();
  }

  SplitResponse split(SplitRequest r) throws Exception {
    TabletSplits.Split s = splits.split(r.getTable(), r.getTabletId(),
        r.getSplitKey().isEmpty() ? null : r.getSplitKey().toByteArray(), r.getRequestId());
    return SplitResponse.newBuilder().setLeftId(s.leftId()).setRightId(s.rightId())
        .setSplitKey(ByteString.copyFrom(s.key())).setServerId(s.server()).build();
  }

  /**
   * Reads or sets the balancer switch. Switched off, it returns once a balancing move under way has
   * ended: the balancer reads the switch again under the moves' lock before each move, so none
   * starts afterwards (a decommissioned server is still drained).
   */
  BalancerResponse balancer(BalancerRequest r) throws Exception {
    if (r.getSet()) {
      balancer.set(r.getEnabled());
      if (!r.getEnabled()) {
        synchronized (moves.serial()) {
          LOG.info("balancer switched off; no balancing move is under way");
        }
      } else {
        LOG.info("balancer switched on");
      }
    }
    return BalancerResponse.newBuilder().setEnabled(balancer.enabled()).build();
  }

  /**
   * Marks a server as draining (its tablets move away, see {@link Balancer}) or, with cancel, as an
   * ordinary server again. The server must be live or have tablets assigned.
   */
  DecommissionResponse decommission(DecommissionRequest r) throws Exception {
    String id = r.getServerId();
    checkServerId(id);
    Map<String, String> live = liveServers.read();
    int assigned = tabletsOf(id);
    if (r.getCancel()) {
      draining.remove(id);
      LOG.info("server {} is no longer being decommissioned", id);
    } else {
      if (!live.containsKey(id) && assigned == 0) {
        throw new InvalidRequestException("no tablet server '" + id + "' is live or has tablets (live: "
            + live.keySet() + ")");
      }
      if (live.size() - draining.read().size() <= 1 && live.containsKey(id) && !draining.read().contains(id)) {
        throw new InvalidRequestException("server " + id + " is the last live server not being decommissioned:"
            + " its tablets would have nowhere to go");
      }
      draining.add(id);
      LOG.info("server {} is being decommissioned: its {} tablets move to other servers", id, assigned);
    }
    return DecommissionResponse.newBuilder().setTabletsLeft(assigned).build();
  }

  private int tabletsOf(String serverId) throws Exception {
    int n = 0;
    for (TableMeta t : tables.all()) {
      for (TabletLocation l : t.getTabletsList()) {
        if (l.getServerId().equals(serverId)) {
          n++;
        }
      }
    }
    return n;
  }

  private static void checkServerId(String id) {
    if (id.isEmpty() || id.length() > MAX_SERVER_ID || !id.matches("[A-Za-z0-9._-]+")) {
      throw new InvalidRequestException("not a tablet server id: '" + Echo.of(id)
          + "' (letters, digits, '.', '_' and '-', at most " + MAX_SERVER_ID + ")");
    }
  }
}
