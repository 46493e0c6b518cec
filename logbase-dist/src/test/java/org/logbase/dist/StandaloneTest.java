package org.logbase.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.client.LogBaseClient;
import org.logbase.client.ScanSpec;
import org.logbase.client.Scanner;
import org.logbase.client.Table;
import org.logbase.client.TableDefinition;
import org.logbase.shell.LogBaseShell;

/** The embedded default (bin/logbase standalone): one JVM serves a client, and keeps data across restarts. */
class StandaloneTest {
  @TempDir Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  Standalone standalone(int zkPort) throws Exception {
    Standalone s = new Standalone();
    s.dir = dir;
    s.zkPort = zkPort;
    s.masterPort = 0;
    s.tabletServerPort = 0;
    s.configFile = dir.resolve("no-such-file");
    s.start();
    return s;
  }

  @Test
  void servesAClientAndRecoversAfterARestart() throws Exception {
    int zkPort = LocalCluster.freePort();
    try (Standalone s = standalone(zkPort);
        LogBaseClient client = LogBaseClient.connect("localhost:" + zkPort)) {
      client.admin().createTable(TableDefinition.builder("t").columnGroup("g", "c").build(), b("m"));
      Table t = client.table("t");
      for (int i = 0; i < 100; i++) {
        t.put(b("k" + i), Map.of("c", b("v" + i)));
      }
    }
    try (Standalone s = standalone(zkPort);
        LogBaseClient client = LogBaseClient.connect("localhost:" + zkPort)) {
      Table t = client.table("t");
      assertArrayEquals(b("v42"), t.get(b("k42")).value("c"));
      try (Scanner sc = t.scan(ScanSpec.all())) {
        assertEquals(100, sc.stream().count());
      }
      assertEquals(List.of("t"), client.admin().listTables());
    }
  }

  @Test
  void shellTransactionsCommitAndAbort() throws Exception {
    int zkPort = LocalCluster.freePort();
    try (Standalone s = standalone(zkPort);
        LogBaseClient client = LogBaseClient.connect("localhost:" + zkPort)) {
      String zk = "localhost:" + zkPort;
      // Rows on both sides of the split: one tablet server, two tablets.
      String[] committed = shell(zk, 0, "create t g:c --splits m; begin; put t a c=1; put t z c=2; get t a; scan t;"
          + " commit; get t z");
      assertTrue(committed[0].matches("(?s)created table t with 2 tablets\n"
          + "transaction \\d+ started \\(snapshot [^)]+\\)\n"
          + "OK, buffered in transaction \\d+ \\(written at commit\\)\n".repeat(2)
          + "a  c=1  @uncommitted\n"
          + "a  c=1  @uncommitted\nz  c=2  @uncommitted\n2 rows\n"
          + "committed at \\d+ \\(\\S+\\)\nz  c=2  @\\S+\n"), committed[0]);
      assertArrayEquals(b("1"), client.table("t").get(b("a")).value("c"));

      // A transaction that may have written, left open at the end, is aborted and fails the commands.
      String[] aborted = shell(zk, 1, "begin; put t b c=3; abort; begin; put t q c=4");
      assertTrue(aborted[0].contains("aborted\n"), aborted[0]);
      assertTrue(aborted[1].matches("ERROR: transaction \\d+ was still open at the end of the commands: aborted,"
          + " nothing of it was written \\(end it with 'commit'\\)\n"), aborted[1]);
      assertNull(client.table("t").get(b("b")));
      assertNull(client.table("t").get(b("q")));

      String[] readOnly = shell(zk, 1, "begin --read-only; put t r c=5");
      assertTrue(readOnly[1].startsWith("ERROR: transaction ") && readOnly[1].contains(" is read-only"), readOnly[1]);
    }
  }

  @Test
  void shellHistoryFiltersCountAndTruncateOnRealServers() throws Exception {
    int zkPort = LocalCluster.freePort();
    try (Standalone s = standalone(zkPort)) {
      String zk = "localhost:" + zkPort;
      shell(zk, 0, "create people p:name,city s:visits --splits m; put people ann name=Ann city=Paris;"
          + " put people bob name=Bob city=Oslo; put people zoe name=Zoë city=Paris visits=3;"
          + " put people ann city=Lyon; delete people bob; put people bob name=Bobby");
      String[] filtered = shell(zk, 0, "scan people --filter city=Paris --columns name; scan people --filter"
          + " 'name^=Bo'; scan people --prefix z; scan people --reverse --limit 2 --columns name");
      assertEquals(List.of("zoe  name=Zoë", "1 row", "bob  name=Bobby", "1 row", "zoe  city=Paris",
          "zoe  name=Zoë", "zoe  visits=3", "1 row", "zoe  name=Zoë", "bob  name=Bobby", "2 rows",
          "(limit 2 reached; use --limit N for more)"), withoutTimestamps(filtered[0]));
      String[] history = shell(zk, 0, "get people ann --versions 5; get people bob --versions 5 --columns name");
      assertEquals(List.of("ann  city=Lyon", "ann  city=Paris", "ann  name=Ann", "bob  name=Bobby",
          "bob  (deleted; group p)", "bob  name=Bob"), withoutTimestamps(history[0]));
      String[] counted = shell(zk, 0, "count people; truncate people --yes; count people; exists people");
      assertEquals(List.of("3 rows", "truncated table people: empty, 2 tablets", "0 rows", "table people exists"),
          withoutTimestamps(counted[0]));
    }
  }

  private static List<String> withoutTimestamps(String out) {
    return out.lines().map(l -> l.replaceAll("  @\\S+$", "")).toList();
  }

  /** Runs the shell with {@code -e}; returns its stdout and stderr after checking its exit code. */
  private static String[] shell(String zk, int exitCode, String commands) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LogBaseShell.run(new String[] {"--zookeeper", zk, "-e", commands},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    String[] result = {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    assertEquals(exitCode, code, result[0] + result[1]);
    return result;
  }
}
