package org.logbase.common.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.logbase.common.schema.StoragePolicy.BlockCompression;
import org.logbase.rpc.TableSpec;

/**
 * The fingerprint a heartbeat reports per served tablet and the master compares with its table's:
 * the same for the same groups however they reached each side, different for any change an alter or
 * an added group makes.
 */
class SchemaFingerprintTest {
  private static final ColumnGroup PROFILE = new ColumnGroup(0, "profile", List.of("name", "email"));
  private static final ColumnGroup STATS = new ColumnGroup(1, "stats", List.of("visits"),
      new StoragePolicy(3, 60_000, BlockCompression.ZSTD));

  private static TableSchema table(ColumnGroup... groups) {
    return new TableSchema("users", 7, List.of(groups));
  }

  @Test
  void theSameGroupsHaveTheSameFingerprintAfterTheWire() throws Exception {
    TableSchema master = table(PROFILE, STATS);
    TableSpec wire = SchemaProtos.toProto(master);
    TableSchema server = SchemaProtos.fromProto(TableSpec.parseFrom(wire.toByteArray()));
    assertEquals(master.fingerprint(), server.fingerprint());
    // A spec that leaves the compression out means the default, as a server takes it.
    TableSpec unset = wire.toBuilder().setColumnGroups(0, wire.getColumnGroups(0).toBuilder().clearCompression()).build();
    assertEquals(master.fingerprint(), SchemaProtos.fromProto(unset).fingerprint());
  }

  @Test
  void everyChangeOfTheGroupsChangesIt() {
    long f = table(PROFILE, STATS).fingerprint();
    assertNotEquals(0, f);
    assertNotEquals(f, table(PROFILE).fingerprint(), "a group added");
    assertNotEquals(f, table(PROFILE, STATS.withPolicy(new StoragePolicy(2, 60_000, BlockCompression.ZSTD))).fingerprint());
    assertNotEquals(f, table(PROFILE, STATS.withPolicy(new StoragePolicy(3, 0, BlockCompression.ZSTD))).fingerprint());
    assertNotEquals(f, table(PROFILE, STATS.withPolicy(new StoragePolicy(3, 60_000, BlockCompression.LZ4))).fingerprint());
    assertNotEquals(f, table(PROFILE, new ColumnGroup(1, "stats", List.of("visits", "score"), STATS.policy())).fingerprint());
    assertNotEquals(f, table(PROFILE, new ColumnGroup(2, "stats", List.of("visits"), STATS.policy())).fingerprint());
  }
}
