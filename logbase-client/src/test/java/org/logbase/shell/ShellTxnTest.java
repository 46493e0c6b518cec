package org.logbase.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.logbase.shell.ShellSession.Outcome;

/**
 * Transactions in the shell (begin, commit, abort) against fake servers. Two sessions run side by
 * side, statement by statement, to show what each sees before and after the other commits. Every
 * table has one tablet, so that every commit has one participant (the fakes do not do two-phase
 * commit).
 */
@Timeout(60)
class ShellTxnTest {
  @RegisterExtension static final FakeShellCluster CLUSTER = new FakeShellCluster();

  private final List<Session> sessions = new ArrayList<>();

  @AfterEach
  void closeSessions() {
    sessions.forEach(Session::close);
  }

  /** What one statement printed. */
  private record Printed(boolean ok, List<String> out, String err) {
    /** The output lines with cell timestamps cut off, except {@code @uncommitted}. */
    List<String> cells() {
      return out.stream().map(l -> l.replaceAll("  @(?!uncommitted)\\S+$", "")).toList();
    }
  }

  /** A shell session whose statements are run one at a time, as if typed. */
  private final class Session implements AutoCloseable {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final ShellSession shell = new ShellSession(CLUSTER.cluster().clientConfig(), new PrintWriter(out, true),
        new PrintWriter(err, true), false);

    Session() {
      sessions.add(this);
    }

    Printed run(String statement) {
      out.getBuffer().setLength(0);
      err.getBuffer().setLength(0);
      Outcome o = shell.execute(statement);
      Printed r = new Printed(o == Outcome.OK, out.toString().lines().toList(), err.toString());
      assertFalse(r.err.contains("\tat ") || r.err.contains("Exception"), r.err);
      return r;
    }

    /** Runs a statement that must succeed; returns its output lines. */
    List<String> ok(String statement) {
      Printed r = run(statement);
      assertTrue(r.ok, statement + ": " + r.err);
      assertEquals("", r.err, statement);
      return r.cells();
    }

    /** Runs a statement that must fail with one error line; returns that line. */
    String fails(String statement) {
      Printed r = run(statement);
      assertFalse(r.ok, statement + " should fail: " + r.out);
      assertEquals(1, r.err.lines().count(), r.err);
      assertTrue(r.err.startsWith("ERROR: "), r.err);
      return r.err.strip();
    }

    @Override
    public void close() {
      shell.close();
    }
  }

  private static long startTs(List<String> begun) {
    assertEquals(1, begun.size(), begun.toString());
    assertTrue(begun.get(0).matches("transaction \\d+ started \\(snapshot \\S+#\\d+(, read-only)?\\)"), begun.get(0));
    return Long.parseLong(begun.get(0).split(" ")[1]);
  }

  @Test
  void ownWritesAreVisibleOnlyInsideTheTransactionUntilCommit() {
    Session a = new Session();
    Session b = new Session();
    a.ok("create accounts g:name,balance");
    a.ok("put accounts bob balance=5");

    long txn = startTs(a.ok("begin"));
    assertEquals(List.of("OK, buffered in transaction " + txn + " (written at commit)"),
        a.ok("put accounts alice name=Alice balance=10"));
    assertEquals(List.of("alice  balance=10  @uncommitted", "alice  name=Alice  @uncommitted"),
        a.ok("get accounts alice"));
    assertEquals(List.of("alice  balance=10  @uncommitted", "alice  name=Alice  @uncommitted", "bob  balance=5",
        "2 rows"), a.ok("scan accounts"));
    a.ok("delete accounts bob");
    assertEquals(List.of("(no row)"), a.ok("get accounts bob"));

    assertEquals(List.of("(no row)"), b.ok("get accounts alice"), "another session does not see it");
    assertEquals(List.of("bob  balance=5"), b.ok("get accounts bob"));
    startTs(b.ok("begin --read-only")); // b's snapshot is older than a's commit

    List<String> committed = a.ok("commit");
    assertTrue(committed.get(0).matches("committed at \\d+ \\(\\S+#\\d+\\)"), committed.toString());
    assertEquals(List.of("alice  balance=10", "alice  name=Alice"), a.ok("get accounts alice"), "autocommit again");

    assertEquals(List.of("(no row)"), b.ok("get accounts alice"), "b still reads its snapshot");
    assertEquals(List.of("bob  balance=5", "1 row"), b.ok("scan accounts"));
    b.ok("commit");
    assertEquals(List.of("alice  balance=10", "alice  name=Alice", "1 row"), b.ok("scan accounts"));
  }

  @Test
  void abortDiscardsTheBufferedWrites() {
    Session a = new Session();
    a.ok("create drafts g:c");
    a.ok("put drafts keep c=1");
    a.ok("begin");
    a.ok("put drafts new c=2");
    a.ok("delete drafts keep");
    assertEquals(List.of("aborted"), a.ok("abort"));
    assertEquals(List.of("keep  c=1", "1 row"), a.ok("scan drafts"));
  }

  @Test
  void secondCommitOfTheSameRowPrintsTheConflict() {
    Session a = new Session();
    Session b = new Session();
    a.ok("create counters g:n");
    a.ok("begin");
    long second = startTs(b.ok("begin"));
    a.ok("put counters hits n=1");
    b.ok("put counters hits n=2");
    a.ok("commit");

    String conflict = b.fails("commit");
    assertTrue(conflict.matches("ERROR: transaction " + second + " conflicts: row hits of table 'counters' was"
        + " written at \\d+, after the transaction began \\(nothing was written; begin again\\)"), conflict);
    assertEquals("ERROR: no transaction is open (start one with 'begin')", b.fails("commit"), "the conflict ended it");
    assertEquals(List.of("hits  n=1"), b.ok("get counters hits"));
  }

  @Test
  void mistakesAreOneLineErrors() {
    Session a = new Session();
    assertEquals("ERROR: no transaction is open (start one with 'begin')", a.fails("commit"));
    assertEquals("ERROR: no transaction is open (start one with 'begin')", a.fails("abort"));

    a.ok("create notes g:text");
    a.ok("put notes n text=old");
    long before = Long.parseLong(a.ok("put notes n text=new").get(0).replaceAll("OK, timestamp (\\d+) .*", "$1"));

    long txn = startTs(a.ok("begin"));
    assertEquals("ERROR: transaction " + txn + " is open: 'commit' or 'abort' it first (one transaction at a time)",
        a.fails("begin --read-only"));
    assertTrue(a.fails("get notes n --as-of " + before).startsWith("ERROR: --as-of cannot be used inside a"
        + " transaction: it reads its snapshot " + txn + " "));
    assertTrue(a.fails("scan notes --as-of 1").contains("--as-of cannot be used inside a transaction"));
    a.ok("put notes n text=mine");
    assertEquals(List.of("n  text=mine  @uncommitted"), a.ok("get notes n"), "the failures left it open");
    a.ok("abort");

    startTs(a.ok("begin --as-of " + (before - 1)));
    assertEquals(List.of("n  text=old"), a.ok("get notes n"), "--as-of reads that snapshot");
    String readOnly = a.fails("put notes n text=x");
    assertTrue(readOnly.startsWith("ERROR: transaction " + (before - 1) + " is read-only"), readOnly);
    assertTrue(a.fails("delete notes n").contains("is read-only"));
    a.ok("abort");

    startTs(a.ok("begin --read-only"));
    assertTrue(a.fails("put notes n text=x").contains("is read-only"));
    a.ok("commit");
    assertEquals(List.of("n  text=new"), a.ok("get notes n"));
  }

  /**
   * A transaction begun by commands or a script and never committed is aborted at the end, and the
   * shell exits 1 (it exited 0 with a note: a forgotten 'commit' passed for success); a read-only one
   * left open only gets the note.
   */
  @Test
  void anOpenTransactionIsAbortedWhenTheScriptEnds() {
    FakeShellCluster.Result r = CLUSTER.shell("-e", "create pending g:c; begin; put pending k c=1");
    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().matches("ERROR: transaction \\d+ was still open at the end of the commands: aborted, nothing"
        + " of it was written \\(end it with 'commit'\\)\n"), r.err());
    assertEquals(List.of("(no row)"), new Session().ok("get pending k"));
    FakeShellCluster.Result readOnly = CLUSTER.shell("-e", "begin --read-only; get pending k");
    assertEquals(0, readOnly.code(), readOnly.err());
    assertTrue(readOnly.err().startsWith("NOTE: transaction "), readOnly.err());
  }
}
