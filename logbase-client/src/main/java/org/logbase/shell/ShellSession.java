package org.logbase.shell;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.logbase.client.LogBaseClient;
import org.logbase.client.Transaction;
import org.logbase.common.Config;
import org.logbase.common.Echo;
import picocli.CommandLine;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * One shell run: its output, its connection (opened on the first command that needs the cluster, so
 * that help works without one), the transaction open in it if any, and the execution of statements
 * with error reporting.
 */
final class ShellSession implements AutoCloseable {
  /** How a statement ended. */
  enum Outcome { OK, FAILED, EXIT }

  private final Config config;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean debug;
  private final Confirmer confirmer;
  private final Cancellation cancellation;
  private final Printer printer;
  private LogBaseClient client;
  private Transaction transaction;
  private boolean exitRequested;
  private String location; // where the running statement comes from, for error lines (scripts)

  /** For -e and -f: output in UTF-8, nobody to ask, nothing to cancel a command. */
  ShellSession(Config config, PrintWriter out, PrintWriter err, boolean debug) {
    this(config, out, StandardCharsets.UTF_8, err, debug, Confirmer.NOBODY_TO_ASK, Cancellation.NONE);
  }

  /** @param charset what {@code out} encodes in */
  ShellSession(Config config, PrintWriter out, Charset charset, PrintWriter err, boolean debug, Confirmer confirmer,
      Cancellation cancellation) {
    this.config = config;
    this.out = out;
    this.err = err;
    this.debug = debug;
    this.confirmer = confirmer;
    this.cancellation = cancellation;
    this.printer = new Printer(out, charset);
  }

  LogBaseClient client() {
    if (client == null) {
      client = LogBaseClient.connect(config);
    }
    return client;
  }

  Printer printer() {
    return printer;
  }

  /** The open transaction that put, get, scan and delete go through; null when they autocommit. */
  Transaction transaction() {
    return transaction;
  }

  /** Starts a transaction and holds it until commit or abort; fails if one is open already. */
  Transaction begin(Supplier<Transaction> start) {
    if (transaction != null) {
      throw new ShellException("transaction " + transaction.startTimestamp() + " is open: 'commit' or 'abort' it"
          + " first (one transaction at a time)");
    }
    transaction = start.get();
    return transaction;
  }

  /** Takes the open transaction out of the session, for commit or abort; fails if none is open. */
  Transaction endTransaction() {
    if (transaction == null) {
      throw new ShellException("no transaction is open (start one with 'begin')");
    }
    Transaction t = transaction;
    transaction = null;
    return t;
  }

  /** Whether the user cancelled the running command (Ctrl-C), and what must not be cancelled. */
  Cancellation cancellation() {
    return cancellation;
  }

  /** A progress line of a long command: on stderr, so that stdout keeps the results only. */
  void progress(String line) {
    err.println(line);
    err.flush();
  }

  boolean confirm(String question) {
    return confirmer.confirm(question);
  }

  void requestExit() {
    exitRequested = true;
  }

  /** Runs one statement from {@code location} (such as "setup.lb line 3"), named in its error lines. */
  Outcome execute(String statement, String location) {
    this.location = location;
    try {
      return execute(statement);
    } finally {
      this.location = null;
    }
  }

  /** Runs one statement (one command with its arguments); errors are reported, not thrown. */
  Outcome execute(String statement) {
    try {
      List<String> words = Words.split(statement);
      if (words.isEmpty()) {
        return Outcome.OK;
      }
      int code = commandLine().execute(words.toArray(String[]::new));
      return exitRequested ? Outcome.EXIT : code == 0 ? Outcome.OK : Outcome.FAILED;
    } catch (RuntimeException e) {
      report(e);
      return Outcome.FAILED;
    } finally {
      out.flush();
      err.flush();
    }
  }

  /**
   * Prints the one-line error, and the stack trace only when debugging; a command the user
   * cancelled failed because of that, which is all there is to say.
   */
  void report(Throwable t) {
    if (cancellation.requested()) {
      err.println("cancelled" + (transaction == null ? ""
          : " (transaction " + transaction.startTimestamp() + " is still open)"));
      err.flush();
      return;
    }
    error(ErrorLines.message(t));
    if (debug) {
      t.printStackTrace(err);
    }
    err.flush();
  }

  /** Prints one error line: {@code ERROR: [where: ]what}. */
  private void error(String message) {
    err.println("ERROR: " + (location == null ? "" : location + ": ") + message);
  }

  private CommandLine commandLine() {
    // A fresh parser per statement: no option value leaks from one command into the next.
    CommandLine cl = new CommandLine(new Commands(this));
    cl.setOut(out);
    cl.setErr(err);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setSubcommandsCaseInsensitive(true);
    cl.setExecutionExceptionHandler((e, command, parsed) -> {
      report(e);
      return 1;
    });
    cl.setParameterExceptionHandler((e, args) -> {
      if (e.getCommandLine() == cl && e instanceof UnmatchedArgumentException) {
        error("unknown command '" + Echo.of(args[0]) + "'"
            + ParseErrors.didYouMean(ParseErrors.similar(args[0], cl.getSubcommands().keySet()))
            + " (type 'help' for the list of commands)");
      } else {
        error(ParseErrors.message(e));
      }
      return 2;
    });
    return cl;
  }

  /** Aborts a transaction still open (nothing of it was sent), with a note, then disconnects. */
  @Override
  public void close() {
    if (transaction != null) {
      long id = transaction.startTimestamp();
      endTransaction().abort();
      err.println("NOTE: transaction " + id + " was still open at the end: aborted, nothing of it was written");
      err.flush();
    }
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
