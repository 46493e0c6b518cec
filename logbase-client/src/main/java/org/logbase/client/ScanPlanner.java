package org.logbase.client;

import io.grpc.Deadline;
import java.util.ArrayList;
import java.util.List;
import org.logbase.common.Bytes;
import org.logbase.common.NotServingTabletException;

/**
 * Splits a key range into the parts each tablet serves, from the cached locations. A gap in the
 * tablets known (a split or merge half seen) drops the cache and retries, so that no key range is
 * silently skipped.
 */
final class ScanPlanner {
  private final TabletRpc rpc;
  private final String table;

  ScanPlanner(TabletRpc rpc, String table) {
    this.rpc = rpc;
    this.table = table;
  }

  /** The parts of [from, to) in key order; empty bounds are unbounded. */
  List<TabletRangeScan> plan(byte[] from, byte[] to, Deadline deadline) {
    return rpc.retrier().run(deadline, () -> planOnce(from, to, deadline));
  }

  private List<TabletRangeScan> planOnce(byte[] from, byte[] to, Deadline deadline) {
    List<TabletRangeScan> parts = new ArrayList<>();
    if (to.length > 0 && Bytes.compare(from, to) >= 0) {
      return parts;
    }
    TableLocations locs = rpc.locations().get(table, deadline);
    byte[] covered = from; // every key before this one is covered by the parts so far
    for (TabletInfo t : locs.overlapping(from, to)) {
      if (!t.contains(covered)) {
        break;
      }
      if (!t.hasServer()) {
        rpc.locations().invalidate(locs);
        throw new NotServingTabletException("table '" + table + "': " + t);
      }
      boolean endsInside = to.length > 0 && (t.endKey().length == 0 || Bytes.compare(to, t.endKey()) < 0);
      byte[] partEnd = endsInside ? to : t.endKey();
      parts.add(new TabletRangeScan(locs, t, covered, partEnd));
      covered = partEnd;
      if (covered.length == 0 || endsInside) {
        return parts;
      }
    }
    if (to.length > 0 && covered.length > 0 && Bytes.compare(covered, to) >= 0) {
      return parts;
    }
    rpc.locations().invalidate(locs);
    throw new NotServingTabletException("the known tablets of table '" + table + "' do not cover key "
        + Bytes.toStringBinary(covered));
  }
}
