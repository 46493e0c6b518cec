package org.logbase.client;

import com.google.protobuf.ByteString;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.logbase.common.HybridTimestamp;
import org.logbase.common.schema.SchemaProtos;
import org.logbase.rpc.ClusterStatusResponse;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.CompactTableResponse;
import org.logbase.rpc.CompactionStats;
import org.logbase.rpc.ServerLoad;
import org.logbase.rpc.ServerStatus;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;

/** Converts wire messages to the public value types and back. */
final class Protos {
  private Protos() {}

  static TableDescription description(TableMeta meta) {
    return new TableDescription(SchemaProtos.fromProto(meta.getSpec()), tablets(meta));
  }

  static List<TabletInfo> tablets(TableMeta meta) {
    List<TabletInfo> tablets = new ArrayList<>(meta.getTabletsCount());
    for (TabletLocation l : meta.getTabletsList()) {
      tablets.add(new TabletInfo(l.getTablet().getTabletId(), l.getTablet().getStartKey().toByteArray(),
          l.getTablet().getEndKey().toByteArray(), l.getServerId(), l.getAddress(), meta.getSpec().getId()));
    }
    return tablets;
  }

  static ClusterStatus clusterStatus(ClusterStatusResponse r) {
    List<ServerInfo> servers = new ArrayList<>();
    for (ServerStatus s : r.getServersList()) {
      ServerLoad l = s.getLoad();
      servers.add(new ServerInfo(s.getServerId(), s.getAddress(), s.getLive(), s.getDraining(), s.getTabletsList(),
          !s.hasLoad() ? null
          : new ServerInfo.Load(l.getStartedMs() == 0 ? null : Instant.ofEpochMilli(l.getStartedMs()), l.getRequests(),
              l.getRequestsPerSecond(), l.getLogFileBytes(), l.getLogBytes(), l.getLocks(), l.getUnknownDecides(),
              l.getLastCompaction())));
    }
    return new ClusterStatus(r.getActiveMaster(), r.getMastersList(), servers, r.getTables(), r.getBalancerEnabled(),
        r.getMovesInProgressList());
  }

  /** Each tablet's outcome; the wire's TabletCompaction shares the public type's name, so it stays unnamed. */
  static List<TabletCompaction> compactions(CompactTableResponse r) {
    return r.getTabletsList().stream().map(c -> {
      CompactionStats s = c.getStats();
      return new TabletCompaction(c.getTabletId(), c.getServerId(), s.getBytesIn(), s.getBytesOut(), s.getVersionsIn(),
          s.getVersionsOut(), s.getVersionsDropped(), s.getSegments(), s.getHorizon(), s.getMillis(), c.getError());
    }).toList();
  }


  static List<ColumnValue> columns(Map<String, byte[]> columns) {
    List<ColumnValue> values = new ArrayList<>(columns.size());
    columns.forEach((c, v) -> values.add(
        ColumnValue.newBuilder().setColumn(c).setValue(ByteString.copyFrom(v)).build()));
    return values;
  }

  /** The wire form of a read timestamp: 0 means newest. */
  static long asOf(long timestamp) {
    return timestamp == HybridTimestamp.LATEST ? 0 : timestamp;
  }
}
