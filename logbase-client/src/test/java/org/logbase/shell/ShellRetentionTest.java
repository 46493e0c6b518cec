package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.shell.FakeShellCluster.Result;

/**
 * Retention as the shell shows it: settings after a group in create and alter add, alter of a
 * group's settings, describe printing them in the form they are typed, refusals of bad settings in
 * one bounded line, and compact printing a line per tablet and a total.
 */
@Timeout(60)
class ShellRetentionTest {
  @RegisterExtension static final FakeShellCluster CLUSTER = new FakeShellCluster();

  private static Result ok(String commands) {
    Result r = CLUSTER.shell("-e", commands);
    assertEquals(0, r.code(), r.out() + r.err());
    return r;
  }

  private static String error(String commands) {
    Result r = CLUSTER.shell("-e", commands);
    assertEquals(1, r.code(), r.out() + r.err());
    assertEquals(1, r.err().lines().count(), "one line: " + r.err());
    return r.err();
  }

  @Test
  void createAlterAndDescribeCarryEachGroupsSettings() {
    ok("create kept profile:name,email versions=3 ttl=7d stats:visits compression=ZSTD ttl=90s");
    ok("alter kept add log:line versions=1 ttl=36h");
    Result r = ok("alter kept profile ttl=forever compression=none; describe kept");
    assertEquals("column group profile of kept: versions=3 ttl=forever compression=none", r.lines().get(0));
    assertTrue(r.lines().containsAll(List.of(
        "  profile (id 0): name, email  versions=3 ttl=forever compression=none",
        "  stats (id 1): visits  versions=all ttl=90s compression=zstd",
        "  log (id 2): line  versions=1 ttl=36h compression=lz4")), r.out());
    ok("alter kept stats versions=all ttl=30m");
    assertTrue(ok("describe kept").lines().contains("  stats (id 1): visits  versions=all ttl=30m compression=zstd"));
  }

  @Test
  void badSettingsAreRefusedInOneBoundedLine() {
    ok("create strict g:c");
    assertTrue(error("alter strict g versions=-1").startsWith("ERROR: invalid versions '-1'"));
    assertTrue(error("alter strict g versions=many").startsWith("ERROR: invalid versions 'many'"));
    assertTrue(error("alter strict g 'ttl=3 weeks'").startsWith("ERROR: invalid ttl '3 weeks'"));
    assertTrue(error("alter strict g ttl=0s").startsWith("ERROR: invalid ttl '0s': a time to live must be more than 0;"
        + " for no limit write ttl=forever"));
    assertTrue(error("alter strict g ttl=40000d").startsWith("ERROR: ttl '40000d' is too long: at most 36600d"));
    assertTrue(error("alter strict g ttl=999999999999999999d").contains("is too long"));
    assertTrue(error("alter strict g compression=snappy").contains("compression 'snappy' is not one of none, lz4, zstd"));
    assertTrue(error("alter strict g color=red").startsWith("ERROR: unknown setting 'color'"));
    assertTrue(error("alter strict g ttl=1d ttl=2d").startsWith("ERROR: ttl is given twice"));
    assertTrue(error("alter strict nosuch versions=2").contains("has no column group 'nosuch'"));
    assertTrue(error("alter nosuchtable g versions=2").contains("does not exist"));
    assertTrue(error("alter strict drop g:c").startsWith("ERROR: alter strict drop: write 'alter TABLE add"));
    assertTrue(error("create early versions=3 g:c").startsWith("ERROR: setting 'versions=3' comes before any column"));
    String huge = "x".repeat(100_000);
    String e = error("alter strict g compression=" + huge);
    assertTrue(e.length() < 300, "bounded: " + e.length());
    assertTrue(ok("describe strict").lines().contains("  g (id 0): c  versions=all ttl=forever compression=lz4"),
        "refused changes left no trace");
  }

  @Test
  void compactPrintsEachTabletAndATotalAndFailsWhenATabletWasNotCompacted() {
    ok("create squeezed g:c --splits m");
    Result r = ok("compact squeezed");
    List<String> lines = r.lines();
    assertEquals(3, lines.size(), r.out());
    assertTrue(lines.get(0).matches("tablet \\d+ on ts-\\d: .*B -> .*B, versions 10 -> 4 \\(6 dropped\\),"
        + " 1 segments, 5 ms"), lines.get(0));
    assertTrue(lines.get(2).startsWith("compacted 2 of 2 tablets of squeezed: "), lines.get(2));
    assertTrue(lines.get(2).endsWith(", 12 versions dropped"), lines.get(2));

    CLUSTER.cluster().master(0).failCompactionsOn("ts-1");
    try {
      Result partly = CLUSTER.shell("-e", "compact squeezed; status");
      assertEquals(1, partly.code());
      assertTrue(partly.out().lines().anyMatch(l -> l.matches("tablet \\d+ on ts-1: not compacted: .*its disk is full.*")),
          partly.out());
      assertTrue(partly.out().contains("compacted 1 of 2 tablets of squeezed"), partly.out());
      assertEquals("ERROR: 1 of 2 tablets of squeezed were not compacted", partly.err().strip());
    } finally {
      CLUSTER.cluster().master(0).failCompactionsOn("");
    }
    Result status = ok("status");
    assertTrue(status.out().lines().noneMatch(l -> l.contains("last compaction")), status.out());
    CLUSTER.cluster().master(0).failCompactionsOn("ts-1");
    try {
      assertTrue(ok("status").out().contains("    last compaction: t/1 at 2026-11-25T10:00:00Z: not compacted"));
    } finally {
      CLUSTER.cluster().master(0).failCompactionsOn("");
    }
    assertTrue(error("compact nosuch").contains("does not exist"));
  }
}
