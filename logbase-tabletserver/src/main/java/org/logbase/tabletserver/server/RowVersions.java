package org.logbase.tabletserver.server;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.Collection;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.schema.ColumnGroup;
import org.logbase.rpc.ColumnValue;
import org.logbase.rpc.GetResponse;
import org.logbase.rpc.GroupVersion;
import org.logbase.tablet.Tablet;
import org.logbase.tablet.Version;

/** A Get that asks for versions: the newest few versions of each column group of a row. */
final class RowVersions {
  /** The most versions one request may ask for. */
  static final int MAX_VERSIONS = 1000;

  private RowVersions() {}

  /**
   * The newest {@code versions} versions, as of {@code asOf}, of each column group holding a
   * column asked for (null: every group), with only those columns.
   */
  static GetResponse read(Tablet t, byte[] key, Collection<String> columns, long asOf, int versions)
      throws IOException {
    if (versions < 1 || versions > MAX_VERSIONS) {
      throw new InvalidRequestException("versions must be 1 to " + MAX_VERSIONS + ", not " + versions);
    }
    if (columns != null) {
      columns.forEach(t.descriptor().schema()::groupOf); // a column the table lacks is an error
    }
    GetResponse.Builder b = GetResponse.newBuilder();
    for (ColumnGroup g : t.descriptor().schema().columnGroups()) {
      if (columns != null && g.columns().stream().noneMatch(columns::contains)) {
        continue;
      }
      for (Version v : t.versions(key, g.name(), asOf, versions)) {
        GroupVersion.Builder rv = GroupVersion.newBuilder().setColumnGroup(g.name()).setTimestamp(v.timestamp())
            .setDeleted(v.tombstone());
        v.columns().forEach((c, value) -> {
          if (columns == null || columns.contains(c)) {
            rv.addColumns(ColumnValue.newBuilder().setColumn(c).setValue(ByteString.copyFrom(value)));
          }
        });
        if (v.tombstone() || rv.getColumnsCount() > 0) {
          b.addVersions(rv);
        }
      }
    }
    return b.setFound(b.getVersionsCount() > 0).build();
  }
}
