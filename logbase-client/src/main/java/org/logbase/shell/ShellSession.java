package org.logbase.shell;

import java.io.PrintWriter;
import java.util.List;
import org.logbase.client.LogBaseClient;
import org.logbase.common.Config;
import picocli.CommandLine;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * One shell run: its output, its connection (opened on the first command that needs the cluster, so
 * that help works without one) and the execution of statements with error reporting.
 */
final class ShellSession implements AutoCloseable {
  /** How a statement ended. */
  enum Outcome { OK, FAILED, EXIT }

  private final Config config;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean debug;
  private final Confirmer confirmer;
  private final Printer printer;
  private LogBaseClient client;
  private boolean exitRequested;

  ShellSession(Config config, PrintWriter out, PrintWriter err, boolean debug, Confirmer confirmer) {
    this.config = config;
    this.out = out;
    this.err = err;
    this.debug = debug;
    this.confirmer = confirmer;
    this.printer = new Printer(out);
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

  boolean confirm(String question) {
    return confirmer.confirm(question);
  }

  void requestExit() {
    exitRequested = true;
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

  /** Prints the one-line error, and the stack trace only when debugging. */
  void report(Throwable t) {
    err.println(ErrorLines.of(t));
    if (debug) {
      t.printStackTrace(err);
    }
    err.flush();
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
      CommandLine command = e.getCommandLine();
      if (command == cl && e instanceof UnmatchedArgumentException) {
        err.println("ERROR: unknown command '" + args[0] + "' (type 'help' for the list of commands)");
      } else {
        err.println("ERROR: " + e.getMessage() + " (see 'help " + command.getCommandName() + "')");
      }
      return 2;
    });
    return cl;
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
