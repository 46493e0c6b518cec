package org.logbase.master;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Arrays;
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
  static List<TabletSpec> fromSplitKeys(List<ByteString> splitKeys, TableLimits limits) {
    // The count first: nothing of an oversized request is looked at beyond it.
    if (splitKeys.size() + 1 > limits.maxTabletsPerTable()) {
      throw new InvalidRequestException(splitKeys.size() + " split keys would make " + (splitKeys.size() + 1)
          + " tablets; a table has at most " + limits.maxTabletsPerTable() + " (" + TableLimits.MAX_TABLETS_PER_TABLE
          + ")");
    }
    for (int i = 0; i < splitKeys.size(); i++) {
      byte[] key = splitKeys.get(i).toByteArray();
      if (key.length == 0) {
        throw new InvalidRequestException("split key " + i + " is empty: split keys must be non-empty");
      }
      if (key.length > limits.maxKeyBytes()) {
        throw new InvalidRequestException("split key " + i + " has " + key.length + " bytes; a key has at most "
            + limits.maxKeyBytes() + " (" + TableLimits.MAX_KEY_BYTES + ")");
      }
      if (i > 0) {
        byte[] previous = splitKeys.get(i - 1).toByteArray();
        if (Bytes.compare(previous, key) >= 0) {
          throw new InvalidRequestException("split key " + i + " ('" + shown(key)
              + "') is not greater than split key " + (i - 1) + " ('" + shown(previous)
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

  /** A key for a message: its first 64 bytes at most. */
  private static String shown(byte[] key) {
    return key.length <= 64 ? Bytes.toStringBinary(key)
        : Bytes.toStringBinary(Arrays.copyOf(key, 64)) + "... (" + key.length + " bytes)";
  }
}
