package org.logbase.client;

import org.logbase.common.Bytes;

/**
 * A tablet of a table: its key range [startKey, endKey) (an empty key is unbounded) and the tablet
 * server assigned to it. Arrays are not copied; do not modify them.
 *
 * @param address host:port of the server, empty when the assigned server is not live
 * @param tableId the id of the table it belongs to (0: not known); a table dropped and created
 *     again under its name has a new id, and requests name it so that a server still serving a
 *     tablet of the dropped table does not take them for that one
 */
public record TabletInfo(int tabletId, byte[] startKey, byte[] endKey, String serverId, String address, int tableId) {
  /** A tablet of a table whose id is not known. */
  public TabletInfo(int tabletId, byte[] startKey, byte[] endKey, String serverId, String address) {
    this(tabletId, startKey, endKey, serverId, address, 0);
  }

  /** Whether {@code key} falls into this tablet's range. */
  public boolean contains(byte[] key) {
    return (startKey.length == 0 || Bytes.compare(key, startKey) >= 0)
        && (endKey.length == 0 || Bytes.compare(key, endKey) < 0);
  }

  /** Whether a live server serves the tablet. */
  public boolean hasServer() {
    return !address.isEmpty();
  }

  @Override
  public String toString() {
    return "tablet " + tabletId + " [" + (startKey.length == 0 ? "-inf" : Bytes.toStringBinary(startKey)) + ", "
        + (endKey.length == 0 ? "+inf" : Bytes.toStringBinary(endKey)) + ") "
        + (hasServer() ? "on " + serverId + " " + address
            : serverId.isEmpty() ? "has no server" : "is not served: its server " + serverId + " is down");
  }
}
