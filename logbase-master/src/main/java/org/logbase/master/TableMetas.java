package org.logbase.master;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletLocation;

/** Small views of {@link TableMeta} that several master components need. */
final class TableMetas {
  private TableMetas() {}

  /**
   * A copy with every tablet's address set to its server's current address, or empty when that
   * server is not live (a client then waits and asks again rather than sending to a dead server).
   */
  static TableMeta withAddresses(TableMeta meta, Map<String, String> liveServers) {
    TableMeta.Builder b = meta.toBuilder();
    for (TabletLocation.Builder t : b.getTabletsBuilderList()) {
      t.setAddress(liveServers.getOrDefault(t.getServerId(), ""));
    }
    return b.build();
  }

  /** How many tablets of {@code tables} each server id is assigned. */
  static Map<String, Integer> tabletsPerServer(List<TableMeta> tables) {
    Map<String, Integer> counts = new HashMap<>();
    for (TableMeta table : tables) {
      for (TabletLocation t : table.getTabletsList()) {
        counts.merge(t.getServerId(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** The tablet with this id; {@link InvalidRequestException} naming the table when it has none. */
  static TabletLocation tablet(TableMeta meta, int tabletId) {
    return meta.getTabletsList().stream().filter(t -> t.getTablet().getTabletId() == tabletId).findFirst()
        .orElseThrow(() -> new InvalidRequestException("table '" + meta.getSpec().getName() + "' has no tablet "
            + tabletId + " (describe lists its tablets)"));
  }

  /** The name a tablet has in status reports and logs: {@code table/tablet_id}. */
  static String tabletName(String table, int tabletId) {
    return table + "/" + tabletId;
  }

  /**
   * Whether a tablet is being moved or split: its server may have closed it on purpose, so nothing
   * but {@link TabletMoves} or {@link TabletSplits} opens it.
   */
  static boolean changing(TabletLocation t) {
    return t.hasMove() || t.hasSplit();
  }
}
