package org.logbase.common.schema;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

  /**
   * A fingerprint of column groups (ids, names, columns and policies, in order): equal groups have
   * equal fingerprints wherever they are computed, so a heartbeat can say with 8 bytes which schema
   * a server serves a tablet with. Never 0, which means "not given".
   */
  public static long fingerprint(List<ColumnGroup> groups) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    for (ColumnGroup g : groups) {
      byte[] b = toProto(g).toByteArray();
      sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(b.length).array());
      sha.update(b);
    }
    long f = ByteBuffer.wrap(sha.digest()).getLong();
    return f == 0 ? 1 : f;
  }
}
