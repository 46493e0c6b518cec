package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.common.Version;
import org.logbase.shell.FakeShellCluster.Result;

/** The commands an HBase shell user reaches for: count, truncate, exists, version, list REGEX, disable. */
@Timeout(60)
class ShellCommandsTest {
  @RegisterExtension static final FakeShellCluster CLUSTER = new FakeShellCluster();

  private static Result ok(String commands) {
    Result r = CLUSTER.shell("-e", commands);
    assertEquals(0, r.code(), r.out() + r.err());
    return r;
  }

  @Test
  void countShowsProgressOnStderrAndTheTotalOnStdout() {
    StringBuilder puts = new StringBuilder("create counted g:c --splits k05;");
    for (int i = 0; i < 10; i++) {
      puts.append(" put counted k").append(String.format("%02d", i)).append(" c=").append(i).append(';');
    }
    ok(puts.toString());
    Result r = ok("count counted --interval 4");
    assertEquals(List.of("10 rows"), r.lines());
    assertEquals(List.of("counted 4 rows so far, now at k03", "counted 8 rows so far, now at k07"), r.err().lines().toList());
  }

  @Test
  void truncateKeepsTheColumnGroupsAndSplitKeys() {
    ok("create emptied a:x b:y,z --splits m,t; put emptied k x=1; put emptied q y=2");
    Result r = ok("truncate emptied --yes; scan emptied; describe emptied");
    assertTrue(r.lines().contains("truncated table emptied: empty, 3 tablets"), r.out());
    assertTrue(r.lines().contains("0 rows"), r.out());
    assertTrue(r.lines().containsAll(List.of("  a (id 0): x  versions=all ttl=forever compression=lz4",
        "  b (id 1): y, z  versions=all ttl=forever compression=lz4")), r.out());
    assertTrue(r.lines().stream().anyMatch(l -> l.matches("  \\d+  \\[m, t\\)  .*")), r.out());
    Result asked = CLUSTER.shell("-e", "truncate emptied");
    assertEquals(1, asked.code());
    assertTrue(asked.err().contains("add --yes"), asked.err());
  }

  @Test
  void existsVersionListRegexAndDisable() {
    ok("create alpha1 g:c; create alpha2 g:c; create beta1 g:c");
    Result r = ok("exists alpha1; exists nothere; version; list 'alpha.*'; disable alpha1; enable alpha1");
    List<String> lines = r.lines();
    assertEquals("table alpha1 exists", lines.get(0));
    assertEquals("table nothere does not exist", lines.get(1));
    assertTrue(lines.get(2).startsWith("LogBase " + Version.get() + " (shell and client; Java "), lines.get(2));
    assertEquals(List.of("alpha1", "alpha2", "2 tables"), lines.subList(3, 6));
    assertTrue(lines.get(6).startsWith("nothing to do: LogBase tables are never disabled"), lines.get(6));
    Result bad = CLUSTER.shell("-e", "list '('");
    assertTrue(bad.err().startsWith("ERROR: invalid regular expression '('"), bad.err());
    Result counted = CLUSTER.shell("-e", "cuont alpha1");
    assertTrue(counted.err().startsWith("ERROR: unknown command 'cuont'; did you mean 'count'?"), counted.err());
  }

  @Test
  void getVersionsIsRefusedInsideATransaction() {
    ok("create hist g:c; put hist k c=1");
    Result r = CLUSTER.shell("-e", "begin; get hist k --versions 2");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("ERROR: --versions reads the history"), r.err());
  }
}
