package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.shell.FakeShellCluster.Result;

/** The shell's -e and -f modes against fake servers, output checked line by line. */
@Timeout(60)
class ShellTest {
  @RegisterExtension static final FakeShellCluster CLUSTER = new FakeShellCluster();

  private static Result shell(String... args) {
    return CLUSTER.shell(args);
  }

  private static void assertNoStackTrace(Result r) {
    assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
    assertFalse(r.out().contains("\tat ") || r.out().contains("Exception"), r.out());
  }

  /** The lines that start with {@code prefix}, timestamps ("  @...") cut off. */
  private static List<String> cells(Result r, String prefix) {
    return r.lines().stream().filter(l -> l.startsWith(prefix)).map(l -> l.replaceAll("  @\\S+$", "")).toList();
  }

  @Test
  void executesCommandsAgainstTheCluster() {
    Result r = shell("-e", "create users profile:name,email stats:visits --splits g,p;"
        + " put users alice name=Alice 'email=alice@example.org';"
        + " put users zed name=\"Zed Z\" visits=3;"
        + " put users 'k\\x00\\xFF' name=binary;"
        + " get users alice;"
        + " get users alice --columns email;"
        + " get users nobody;"
        + " scan users;"
        + " describe users;"
        + " list");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    List<String> lines = r.lines();
    assertEquals("created table users with 3 tablets", lines.get(0));
    assertTrue(lines.get(1).startsWith("OK, timestamp "), lines.get(1));

    assertEquals(List.of(
        "alice  email=alice@example.org", "alice  name=Alice", // get alice
        "alice  email=alice@example.org",                      // get alice --columns email
        "alice  email=alice@example.org", "alice  name=Alice"), // scan
        cells(r, "alice  "));
    assertTrue(lines.contains("(no row)"));
    assertEquals(List.of("k\\x00\\xFF  name=binary"), cells(r, "k\\x00"));
    assertEquals(List.of("zed  name='Zed Z'", "zed  visits=3"), cells(r, "zed  "));
    assertTrue(lines.contains("3 rows"), r.out());

    assertTrue(lines.stream().anyMatch(l -> l.matches("table users \\(id \\d+\\)")), r.out());
    assertTrue(lines.contains("  profile (id 0): name, email  versions=all ttl=forever compression=lz4"), r.out());
    assertTrue(lines.contains("  stats (id 1): visits  versions=all ttl=forever compression=lz4"), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.matches("  \\d+  \\[-inf, g\\)  ts-0 127\\.0\\.0\\.1:\\d+")), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.matches("  \\d+  \\[g, p\\)  ts-1 127\\.0\\.0\\.1:\\d+")), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.matches("  \\d+  \\[p, \\+inf\\)  ts-0 127\\.0\\.0\\.1:\\d+")), r.out());
    // Other tests' tables may be listed too.
    assertTrue(lines.contains("users"), r.out());
    assertTrue(lines.get(lines.size() - 1).matches("\\d+ tables?"), r.out());
  }

  @Test
  void scanOptionsAlterDeleteAndStatus() {
    Result r = shell("-e", "create events e:kind --splits m; put events a kind=x; put events n kind=y;"
        + " put events z kind=z; scan events --start b --limit 1; alter events add extra:note;"
        + " put events a note=hello; delete events n; scan events --columns note; status; drop events --yes");
    assertEquals(0, r.code(), r.err());
    assertEquals(List.of("n  kind=y", "a  note=hello"), r.lines().stream()
        .filter(l -> l.startsWith("n  ") || l.startsWith("a  ")).map(l -> l.replaceAll("  @\\S+$", "")).toList());
    assertTrue(r.lines().contains("(limit 1 reached; use --limit N for more)"), r.out());
    assertTrue(r.lines().contains("added column group extra to events"), r.out());
    assertTrue(r.lines().contains("active master: " + CLUSTER.cluster().master(0).address()), r.out());
    assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("  ts-0  127.0.0.1:") && l.contains("live")), r.out());
    assertTrue(r.lines().contains("dropped table events"), r.out());
  }

  @Test
  void badCommandPrintsOneErrorLineAndFails() {
    Result r = shell("-e", "frobnicate now");
    assertEquals(1, r.code());
    assertEquals("ERROR: unknown command 'frobnicate' (type 'help' for the list of commands)\n", r.err());
    assertNoStackTrace(r);
  }

  @Test
  void serverErrorsPrintOneClearLine() {
    Result r = shell("-e", "get no_such_table k; list");
    assertEquals(1, r.code(), "a failed command fails the run");
    assertEquals("ERROR: table 'no_such_table' does not exist\n", r.err());
    assertTrue(r.lines().get(r.lines().size() - 1).matches("\\d+ tables?"), "later commands still run");
    assertNoStackTrace(r);

    Result column = shell("-e", "create cols g:a; put cols k b=1");
    assertEquals(1, column.code());
    assertTrue(column.err().startsWith("ERROR: ") && column.err().contains("'b'"), column.err());
    assertNoStackTrace(column);

    Result usage = shell("-e", "put onlytable");
    assertEquals(1, usage.code());
    assertTrue(usage.err().startsWith("ERROR: missing ROW; usage: put TABLE ROW COLUMN=VALUE..."),
        usage.err());

    Result drop = shell("-e", "drop cols");
    assertEquals(1, drop.code());
    assertTrue(drop.err().contains("--yes"), drop.err());
  }

  @Test
  void scriptStopsAtTheFirstFailureUnlessToldToContinue(@TempDir Path dir) throws Exception {
    Path script = dir.resolve("script.lb");
    Files.writeString(script, String.join("\n",
        "# a script",
        "create scripted g:c",
        "",
        "put scripted k c=1",
        "get missing_table k",
        "put scripted k2 c=2",
        "scan scripted"));
    Result stopped = shell("-f", script.toString());
    assertEquals(1, stopped.code());
    assertEquals("ERROR: script.lb line 5: table 'missing_table' does not exist\n", stopped.err());
    assertFalse(stopped.out().contains("rows"), "nothing after the failure ran");

    Result continued = shell("-f", script.toString(), "--continue-on-error");
    assertEquals(1, continued.code());
    // The create fails this time (the table exists), the rest runs.
    assertTrue(continued.out().contains("2 rows"), continued.out());
  }

  @Test
  void helpDescribesEveryCommand() {
    Result r = shell("-e", "help");
    assertEquals(0, r.code(), r.err());
    for (String command : List.of("create", "alter", "describe", "list", "drop", "put", "get", "scan", "delete",
        "begin", "commit", "abort", "status", "compact", "help", "exit")) {
      assertTrue(r.out().contains("  " + command), command + " in " + r.out());
    }
    Result scan = shell("-e", "help scan");
    assertTrue(scan.out().contains("--limit") && scan.out().contains("--as-of"), scan.out());
    // Each command's line in the list is a whole sentence (some stopped mid-sentence: "...opens it from its").
    List<String> cut = r.out().lines().filter(l -> l.matches("  [a-z]+ +\\S.*") && !l.endsWith(".")).toList();
    assertEquals(List.of(), cut, "each a whole sentence");
  }
}
