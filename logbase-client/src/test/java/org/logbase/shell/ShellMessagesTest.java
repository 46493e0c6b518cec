package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.logbase.common.Version;
import org.logbase.shell.FakeShellCluster.Result;

/** What the shell says about mistakes, and how it prints text: issue #13's findings, one test each. */
@Timeout(60)
class ShellMessagesTest {
  @RegisterExtension static final FakeShellCluster CLUSTER = new FakeShellCluster();

  @Test
  void aColumnTwiceInOneGroupIsNamedAsSuch() {
    Result r = CLUSTER.shell("-e", "create t3 g:a,a");
    assertEquals(1, r.code());
    assertEquals("ERROR: column 'a' appears twice in column group 'g'\n", r.err());
  }

  /**
   * --as-of 0 read the newest versions (0 means "not given" on the wire), and a snapshot in the
   * future answered as of now and then changed as commits landed: both are refused now.
   */
  @Test
  void asOfZeroAndSnapshotsInTheFutureAreRefused() {
    Result zero = CLUSTER.shell("-e", "create asof g:a; put asof r a=1; get asof r --as-of 0");
    assertEquals(1, zero.code());
    assertTrue(zero.err().startsWith("ERROR: invalid timestamp 0: timestamps start above 0"), zero.err());
    for (String read : List.of("get asof r --as-of 2099-01-01T00:00:00Z", "scan asof --as-of 2099-01-01T00:00:00Z",
        "begin --as-of 2099-01-01T00:00:00Z")) {
      Result future = CLUSTER.shell("-e", read);
      assertEquals(1, future.code(), read);
      assertTrue(future.err().startsWith("ERROR: snapshot ") && future.err().contains("is in the future"),
          read + ": " + future.err());
    }
    Result past = CLUSTER.shell("-e", "get asof r --as-of 2000-01-01T00:00:00Z");
    assertFalse(past.err().contains("in the future"), past.err());
  }

  /**
   * 'split TABLE' on a table whose splits all fail (here the fake master has none; outside, the
   * cluster went away mid-way) stops after three failures in a row instead of waiting out every
   * tablet's deadline (hours on a table of thousands), and says what it left.
   */
  @Test
  void splitOfEveryTabletStopsAfterThreeFailuresInARow() {
    Result r = CLUSTER.shell("-e", "create splitless g:a --splits b,c,d,e,f; split splitless");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("ERROR: stopped after 3 tablets in a row failed to split"), r.err());
    assertTrue(r.err().contains("split 0, not split 3, not tried 3 of 6 tablets"), r.err());
  }

  /** Messages found wanting from outside: each now says what was wrong in the user's terms. */
  @Test
  void messagesSayWhatWasWrong(@TempDir Path dir) throws Exception {
    Result dup = CLUSTER.shell("-e", "create dupgroups cg:a cg:b");
    assertTrue(dup.err().contains("column group 'cg' appears twice"), dup.err());
    Result twice = CLUSTER.shell("-e", "create twice g:a; put twice r a=1 a=2");
    assertEquals("ERROR: column 'a' is given twice; a put writes each column once\n", twice.err());
    Result tablet = CLUSTER.shell("-e", "move dupgroups abc");
    assertTrue(tablet.err().startsWith("ERROR: invalid TABLET: 'abc' is not an int; usage: move"), tablet.err());
    Result missing = CLUSTER.shell("-f", dir.resolve("nosuch.lb").toString());
    assertEquals("ERROR: cannot read script " + dir.resolve("nosuch.lb") + ": no such file\n", missing.err());
    // A line longer than any request can be is refused before it is held whole (a 300 MiB one ran
    // the shell out of memory).
    Path huge = dir.resolve("huge.lb");
    try (var w = Files.newBufferedWriter(huge)) {
      w.write("put t1 k a=");
      char[] chunk = new char[1 << 20];
      Arrays.fill(chunk, 'x');
      for (int i = 0; i < 33; i++) {
        w.write(chunk);
      }
      w.write("\n");
    }
    Result tooLong = CLUSTER.shell("-f", huge.toString());
    assertEquals(1, tooLong.code());
    assertTrue(tooLong.err().startsWith("ERROR: huge.lb line 1 is longer than 33554432 characters"), tooLong.err());
  }

  /** A malformed --zookeeper is named at once (it was "nothing seems to run there" after a wait). */
  @Test
  void aMalformedZooKeeperAddressIsNamedAtOnce() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LogBaseShell.run(new String[] {"--zookeeper", "localhost:abc", "-e", "list"},
        new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(1, code);
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.startsWith("ERROR: invalid ZooKeeper address 'localhost:abc'"), message);
  }

  /** A ZooKeeper host whose name does not resolve is named (it was "nothing seems to run there"). */
  @Test
  void anUnresolvableZooKeeperHostIsNamed() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LogBaseShell.run(new String[] {"--zookeeper", "no-such-zookeeper.invalid:2181", "-e", "list"},
        new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(1, code);
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.contains("no address is known for no-such-zookeeper.invalid (the name does not resolve)"),
        message);
  }

  @Test
  void versionPrintsTheVersion() {
    Result r = CLUSTER.shell("--version");
    assertEquals(0, r.code(), r.err());
    assertFalse(Version.get().equals("unknown"), "the build records the version");
    assertEquals("LogBase shell " + Version.get() + "\n", r.out());
  }

  @Test
  void scriptErrorsNameTheLine(@TempDir Path dir) throws Exception {
    Path script = dir.resolve("setup.lb");
    Files.writeString(script, "# comment\n\ncreate lines g:c\nget lines k extra\n");
    Result r = CLUSTER.shell("-f", script.toString());
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("ERROR: setup.lb line 4: unexpected argument 'extra'"), r.err());
  }

  @Test
  void parseErrorsAreInTheShellsWordsWithTheUsage() {
    Result extra = CLUSTER.shell("-e", "get users alice bob");
    assertEquals("ERROR: unexpected argument 'bob' (quote a value that holds spaces); usage: get [--as-of=TS|ISO-INSTANT]"
        + " [--columns=COLUMN[,COLUMN...]]... TABLE ROW\n", extra.err().replaceAll("\\[--versions=N\\] ", ""));
    Result option = CLUSTER.shell("-e", "scan users --limt 3");
    assertTrue(option.err().startsWith("ERROR: unknown option '--limt'; did you mean '--limit'?"), option.err());
    for (Result r : new Result[] {extra, option}) {
      assertFalse(r.err().contains("Unmatched") || r.err().contains("index"), r.err());
    }
    Result command = CLUSTER.shell("-e", "descibe users");
    assertEquals("ERROR: unknown command 'descibe'; did you mean 'describe'? (type 'help' for the list of commands)\n",
        command.err());
  }

  @Test
  void utf8PrintsAsTextAndOutputCanBePastedBack() {
    Result r = CLUSTER.shell("-e", "create texts g:name,note; put texts 'é' name='Zoë B' note='it''s'; get texts é;"
        + " put texts k2 note='a;b' name=\\x00\\xC3; get texts k2");
    assertEquals(0, r.code(), r.err());
    List<String> cells = r.lines().stream().map(l -> l.replaceAll("  @\\S+$", "")).toList();
    assertTrue(cells.containsAll(List.of("é  name='Zoë B'", "é  note=its", "k2  name=\\x00\\xC3", "k2  note='a;b'")),
        r.out());
  }

  @Test
  void withNoClusterTheShellSaysWhereItLookedAndWhatToStart() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LogBaseShell.run(new String[] {"--zookeeper", "localhost:" + port, "-e", "list"},
        new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    Result r = new Result(code, "", err.toString(StandardCharsets.UTF_8));
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("ERROR: cannot connect to ZooKeeper at localhost:" + port + " (tried for 5 s)"), r.err());
    assertTrue(r.err().contains("Start one with bin/logbase demo"), r.err());
  }
}
