package org.logbase.master;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import org.logbase.common.Bytes;
import org.logbase.common.InvalidRequestException;
import org.logbase.rpc.TabletSpec;

/** Cuts a new table's key space into tablets at its split keys. */
final class TabletLayout {
  private TabletLayout() {}

  /**
   * n split keys make n + 1 tablets with ids 0..n in key order: [unbounded, k0), [k0, k1), ...,
   * [k(n-1), unbounded). An empty start or end key means unbounded, which is why split keys must be
   * non-empty; they must also be strictly ascending (unsigned byte order) or the ranges would
   * overlap or be empty.
   */
  static List<TabletSpec> fromSplitKeys(List<ByteString> splitKeys) {
    for (int i = 0; i < splitKeys.size(); i++) {
      byte[] key = splitKeys.get(i).toByteArray();
      if (key.length == 0) {
        throw new InvalidRequestException("split key " + i + " is empty: split keys must be non-empty");
      }
      if (i > 0) {
        byte[] previous = splitKeys.get(i - 1).toByteArray();
        if (Bytes.compare(previous, key) >= 0) {
          throw new InvalidRequestException("split key " + i + " ('" + Bytes.toStringBinary(key)
              + "') is not greater than split key " + (i - 1) + " ('" + Bytes.toStringBinary(previous)
              + "'): split keys must be sorted and distinct");
        }
      }
    }
    List<TabletSpec> tablets = new ArrayList<>(splitKeys.size() + 1);
    for (int id = 0; id <= splitKeys.size(); id++) {
      TabletSpec.Builder t = TabletSpec.newBuilder().setTabletId(id);
      if (id > 0) {
        t.setStartKey(splitKeys.get(id - 1));
      }
      if (id < splitKeys.size()) {
        t.setEndKey(splitKeys.get(id));
      }
      tablets.add(t.build());
    }
    return tablets;
  }
}
