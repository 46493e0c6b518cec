package org.logbase.common.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.TableSpec;

/** Converts schemas to and from their wire form. */
public final class SchemaProtos {
  private SchemaProtos() {}

  public static TableSchema fromProto(TableSpec spec) {
    List<ColumnGroup> groups = new ArrayList<>();
    for (ColumnGroupSpec g : spec.getColumnGroupsList()) {
      groups.add(fromProto(g));
    }
    return new TableSchema(spec.getName(), spec.getId(), groups);
  }

  public static ColumnGroup fromProto(ColumnGroupSpec g) {
    StoragePolicy p = new StoragePolicy(g.getMaxVersions(), g.getTtlMs(), g.getCompression().isEmpty()
        ? StoragePolicy.DEFAULT.compression() : StoragePolicy.BlockCompression.parse(g.getCompression()));
    return new ColumnGroup(g.getId(), g.getName(), g.getColumnsList(), p);
  }

  public static TableSpec toProto(TableSchema s) {
    TableSpec.Builder b = TableSpec.newBuilder().setName(s.name()).setId(s.id());
    for (ColumnGroup g : s.columnGroups()) {
      b.addColumnGroups(toProto(g));
    }
    return b.build();
  }

  public static ColumnGroupSpec toProto(ColumnGroup g) {
    return ColumnGroupSpec.newBuilder().setId(g.id()).setName(g.name()).addAllColumns(g.columns())
        .setMaxVersions(g.policy().maxVersions()).setTtlMs(g.policy().ttlMs())
        .setCompression(g.policy().compression().name().toLowerCase(Locale.ROOT)).build();
  }
}
