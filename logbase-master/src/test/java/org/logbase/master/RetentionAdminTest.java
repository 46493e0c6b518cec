package org.logbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.InvalidRequestException;
import org.logbase.common.TableNotFoundException;
import org.logbase.common.schema.StoragePolicy;
import org.logbase.rpc.AlterColumnGroupRequest;
import org.logbase.rpc.ColumnGroupSpec;
import org.logbase.rpc.CompactTableRequest;
import org.logbase.rpc.CompactTableResponse;
import org.logbase.rpc.CompactTabletRequest;
import org.logbase.rpc.OpenTabletRequest;
import org.logbase.rpc.TableMeta;
import org.logbase.rpc.TabletCompaction;
import org.logbase.rpc.TabletLocation;

/**
 * The retention admin calls of issue #10 through the active master, with three fake tablet servers
 * over real gRPC and a real ZooKeeper: column-group storage policies at create, changed by
 * AlterColumnGroup (metadata, then every tablet re-opened with the new schema) and described;
 * refusals of bad input; CompactTable reaching every tablet's server and reporting per tablet.
 */
class RetentionAdminTest {
  @RegisterExtension static final ZooKeeperExtension ZK = new ZooKeeperExtension();
  @RegisterExtension final ActiveMasterExtension master = new ActiveMasterExtension(ZK, "ts-1", "ts-2", "ts-3");

  private static ColumnGroupSpec withPolicy(ColumnGroupSpec g, int versions, long ttlMs, String compression) {
    return g.toBuilder().setMaxVersions(versions).setTtlMs(ttlMs).setCompression(compression).build();
  }

  private TableMeta createKept() {
    return master.admin().call(s -> s.createTable(MasterAdmin.createRequest("kept", List.of(
        withPolicy(MasterAdmin.group("recent", "a", "b"), 3, 7 * 86_400_000L, "zstd"),
        MasterAdmin.group("plain", "c")), "m", "t")));
  }

  private static AlterColumnGroupRequest alter(String table, String group,
      UnaryOperator<AlterColumnGroupRequest.Builder> fields) {
    return fields.apply(AlterColumnGroupRequest.newBuilder().setTable(table).setColumnGroup(group)).build();
  }

  @Test
  void createKeepsEachGroupsPolicyAndDescribeShowsIt() {
    TableMeta made = createKept();
    TableMeta described = master.admin().call(s -> s.describeTable(MasterAdmin.table("kept")));
    ColumnGroupSpec recent = described.getSpec().getColumnGroups(0);
    assertEquals(3, recent.getMaxVersions());
    assertEquals(7 * 86_400_000L, recent.getTtlMs());
    assertEquals("zstd", recent.getCompression());
    ColumnGroupSpec plain = described.getSpec().getColumnGroups(1);
    assertEquals(List.of(0, 0L, ""), List.of(plain.getMaxVersions(), plain.getTtlMs(), plain.getCompression()),
        "absent: all versions, forever, lz4");
    for (TabletLocation t : made.getTabletsList()) {
      assertEquals(made.getSpec(), master.servers().get(t.getServerId()).opensOf("kept", t.getTablet().getTabletId()).get(0)
          .getTable(), "the servers open the tablets with the policies");
    }
  }

  @Test
  void alterChangesOnlyTheFieldsSetAndReopensEveryTabletWithTheNewSchema() {
    TableMeta made = createKept();
    TableMeta altered = master.admin().call(s -> s.alterColumnGroup(alter("kept", "recent", b -> b.setTtlMs(0).setCompression("NONE"))));
    ColumnGroupSpec recent = altered.getSpec().getColumnGroups(0);
    assertEquals(List.of(3, 0L, "none"), List.of(recent.getMaxVersions(), recent.getTtlMs(), recent.getCompression()));
    assertEquals(made.getSpec().getColumnGroups(1), altered.getSpec().getColumnGroups(1), "the other group as it was");
    assertEquals(made.getSpec().getId(), altered.getSpec().getId());
    assertEquals(made.getNextColumnGroupId(), altered.getNextColumnGroupId());
    assertEquals(made.getTabletsList().stream().map(TabletLocation::getTablet).toList(),
        altered.getTabletsList().stream().map(TabletLocation::getTablet).toList(), "the same tablets");
    assertEquals(altered, master.admin().call(s -> s.describeTable(MasterAdmin.table("kept"))));

    TableMeta again = master.admin().call(s -> s.alterColumnGroup(alter("kept", "plain", b -> b.setMaxVersions(1))));
    for (TabletLocation t : again.getTabletsList()) {
      List<OpenTabletRequest> opens = master.servers().get(t.getServerId()).opensOf("kept", t.getTablet().getTabletId());
      assertEquals(3, opens.size(), "create and two alters");
      assertEquals(altered.getSpec(), opens.get(1).getTable());
      assertEquals(again.getSpec(), opens.get(2).getTable());
      assertEquals(t.getTablet(), opens.get(2).getTablet());
    }
    assertEquals(1, again.getSpec().getColumnGroups(1).getMaxVersions());
  }

  @Test
  void badPoliciesAreRefusedWithBoundedMessagesAndLeaveNoTrace() {
    TableMeta made = createKept();
    assertRefused("max versions must be 0 (all) or more: -1", alter("kept", "recent", b -> b.setMaxVersions(-1)));
    assertRefused("time to live must be 0 (forever) to", alter("kept", "recent", b -> b.setTtlMs(-5)));
    assertRefused("time to live must be 0 (forever) to",
        alter("kept", "recent", b -> b.setTtlMs(StoragePolicy.MAX_TTL_MS + 1)));
    assertRefused("compression 'snappy' is not one of none, lz4, zstd",
        alter("kept", "recent", b -> b.setCompression("snappy")));
    assertRefused("table 'kept' has no column group 'nosuch' (its groups: recent, plain)",
        alter("kept", "nosuch", b -> b.setMaxVersions(2)));
    assertRefused("nothing to change in column group 'recent'", alter("kept", "recent", b -> b));
    String huge = "z".repeat(200_000);
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.alterColumnGroup(alter("kept", "recent", b -> b.setCompression(huge)))));
    assertTrue(e.getMessage().length() < 400, "bounded: " + e.getMessage().length());
    e = assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.alterColumnGroup(alter("kept", huge, b -> b.setMaxVersions(1)))));
    assertTrue(e.getMessage().length() < 400, "bounded: " + e.getMessage().length());
    assertThrows(TableNotFoundException.class,
        () -> master.admin().call(s -> s.alterColumnGroup(alter("nosuch", "recent", b -> b.setMaxVersions(1)))));
    assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.alterColumnGroup(alter("", "recent", b -> b.setMaxVersions(1)))));
    assertEquals(made, master.admin().call(s -> s.describeTable(MasterAdmin.table("kept"))), "refused changes left no trace");

    assertRefusedCreate("max versions must be 0 (all) or more",
        withPolicy(MasterAdmin.group("g", "x"), -2, 0, "lz4"));
    assertRefusedCreate("time to live must be 0 (forever) to",
        withPolicy(MasterAdmin.group("g", "x"), 0, Long.MAX_VALUE, "lz4"));
    assertRefusedCreate("compression 'gzip' is not one of none, lz4, zstd",
        withPolicy(MasterAdmin.group("g", "x"), 0, 0, "gzip"));
  }

  @Test
  void compactReachesEveryTabletsServerOneAtATimeEachAndReportsPerTablet() {
    String[] keys = {"b", "d", "f", "h", "j"};
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("squeezed", keys)));
    CompactTableResponse r = master.admin().call(s -> s.compactTable(compact("squeezed")));

    assertEquals(meta.getTabletsList().stream().map(t -> t.getTablet().getTabletId()).toList(),
        r.getTabletsList().stream().map(TabletCompaction::getTabletId).toList(), "every tablet, in key order");
    for (TabletCompaction c : r.getTabletsList()) {
      assertEquals("", c.getError());
      assertEquals(1000L * (c.getTabletId() + 1), c.getStats().getBytesIn());
      assertEquals(6, c.getStats().getVersionsDropped());
      assertEquals(77, c.getStats().getHorizon());
      FakeTabletServer server = master.servers().get(c.getServerId());
      List<CompactTabletRequest> asked = server.compactions().stream()
          .filter(q -> q.getTable().equals("squeezed") && q.getTabletId() == c.getTabletId()).toList();
      assertEquals(1, asked.size(), "tablet " + c.getTabletId() + " asked once, of its own server");
      assertTrue(asked.get(0).getMasterEpoch() > 0, "carries the master's epoch");
    }
    for (FakeTabletServer s : master.servers().values()) {
      assertEquals(2, s.compactions().size());
      assertEquals(1, s.mostCompactingAtOnce(), "one tablet at a time on " + s.id());
    }
    assertThrows(TableNotFoundException.class, () -> master.admin().call(s -> s.compactTable(compact("nosuch"))));
  }

  @Test
  void compactReportsEachTabletThatFailedAndCompactsTheOthers() throws Exception {
    TableMeta meta = master.admin().call(s -> s.createTable(MasterAdmin.simpleTable("mixed", "k", "s")));
    master.servers().get("ts-2").failCompactions(true);
    master.servers().get("ts-3").unregister();
    CompactTableResponse r = master.admin().call(s -> s.compactTable(compact("mixed")));

    assertEquals(3, r.getTabletsCount());
    for (TabletCompaction c : r.getTabletsList()) {
      switch (c.getServerId()) {
        case "ts-1" -> assertEquals(List.of("", 4L), List.of(c.getError(), c.getStats().getVersionsOut()));
        case "ts-2" -> assertTrue(c.getError().contains("its disk is full (a fake server)")
            && !c.hasStats(), c.toString());
        default -> assertEquals("its server ts-3 is not live", c.getError());
      }
    }
    assertEquals(0, master.servers().get("ts-3").compactions().size(), "a server that is not live is not asked");
    assertEquals(meta.getTabletsCount(), r.getTabletsCount());
  }

  private static CompactTableRequest compact(String table) {
    return CompactTableRequest.newBuilder().setTable(table).build();
  }

  private void assertRefused(String messagePart, AlterColumnGroupRequest request) {
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.alterColumnGroup(request)));
    assertTrue(e.getMessage().contains(messagePart), "'" + e.getMessage() + "' should mention '" + messagePart + "'");
  }

  private void assertRefusedCreate(String messagePart, ColumnGroupSpec group) {
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> master.admin().call(s -> s.createTable(MasterAdmin.createRequest("refused", List.of(group)))));
    assertTrue(e.getMessage().contains(messagePart), "'" + e.getMessage() + "' should mention '" + messagePart + "'");
  }
}
