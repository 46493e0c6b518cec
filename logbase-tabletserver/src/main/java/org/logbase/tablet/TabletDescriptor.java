package org.logbase.tablet;

import org.logbase.common.Bytes;
import org.logbase.common.schema.TableSchema;

/**
 * Which part of which table a tablet is: the table schema, the tablet's numeric id (unique within
 * the table) and its key range [startKey, endKey), null meaning unbounded.
 */
public record TabletDescriptor(TableSchema schema, int tabletId, byte[] startKey, byte[] endKey) {
  public TabletDescriptor {
    if (startKey != null && endKey != null && Bytes.compare(startKey, endKey) >= 0) {
      throw new IllegalArgumentException("tablet start key must be below its end key");
    }
  }

  public boolean contains(byte[] key) {
    return Bytes.inRange(key, startKey, endKey);
  }

  public TabletId id() {
    return new TabletId(schema.id(), tabletId);
  }

  @Override
  public String toString() {
    return schema.name() + "/" + tabletId + " [" + (startKey == null ? "" : Bytes.toStringBinary(startKey))
        + ", " + (endKey == null ? "" : Bytes.toStringBinary(endKey)) + ")";
  }
}
