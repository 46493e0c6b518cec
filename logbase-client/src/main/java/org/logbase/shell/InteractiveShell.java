package org.logbase.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.Terminal.Signal;
import org.jline.terminal.TerminalBuilder;
import org.logbase.common.ClusterConfig;
import org.logbase.common.Config;
import org.logbase.shell.ShellSession.Outcome;

/**
 * The interactive mode: JLine line editing, history in ~/.logbase_history, prompt "logbase> ", or
 * "logbase(txn)> " while a transaction is open. Ctrl-C cancels the running command and returns to
 * the prompt (an open transaction stays open); at the prompt it clears the line. Ctrl-D leaves.
 */
final class InteractiveShell {
  static final String PROMPT = "logbase> ";
  static final String TRANSACTION_PROMPT = "logbase(txn)> ";

  private final Config config;
  private final boolean debug;

  InteractiveShell(Config config, boolean debug) {
    this.config = config;
    this.debug = debug;
  }

  int run() throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
      LineReader reader = LineReaderBuilder.builder()
          .terminal(terminal)
          .appName("logbase")
          .variable(LineReader.HISTORY_FILE, Path.of(System.getProperty("user.home"), ".logbase_history"))
          // '!' is ordinary text in keys and values, not a history reference.
          .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
          .build();
      PrintWriter out = terminal.writer();
      Confirmer ask = question -> {
        reader.variable(LineReader.DISABLE_HISTORY, true); // answers are not commands to recall
        try {
          String answer = reader.readLine(question + " [y/N] ").strip();
          return answer.equalsIgnoreCase("y") || answer.equalsIgnoreCase("yes");
        } catch (UserInterruptException | EndOfFileException e) {
          return false; // Ctrl-C or Ctrl-D: no
        } finally {
          reader.variable(LineReader.DISABLE_HISTORY, false);
        }
      };
      try (CommandWorker worker = new CommandWorker();
          ShellSession session = new ShellSession(config, out, terminal.encoding(), out, debug, ask, worker)) {
        // While a command runs (JLine handles Ctrl-C itself while it reads a line).
        terminal.handle(Signal.INT, signal -> {
          if (worker.cancel() == CommandWorker.CancelResult.CANNOT_CANCEL) {
            out.println();
            out.println("(a commit cannot be cancelled once it has begun: waiting for its outcome)");
            out.flush();
          }
        });
        out.println("LogBase shell, cluster at ZooKeeper " + config.getString(ClusterConfig.ZK_CONNECT, "?")
            + ". Type 'help' for commands, 'exit' or Ctrl-D to leave, Ctrl-C to cancel a command.");
        loop(reader, session, worker);
      }
    }
    return 0;
  }

  private static void loop(LineReader reader, ShellSession session, CommandWorker worker) {
    while (true) {
      String line;
      try {
        line = reader.readLine(session.transaction() == null ? PROMPT : TRANSACTION_PROMPT);
      } catch (UserInterruptException e) {
        continue; // Ctrl-C drops the line being typed
      } catch (EndOfFileException e) {
        return; // Ctrl-D
      }
      for (String statement : Words.statements(line)) {
        Outcome o = worker.run(() -> session.execute(statement));
        if (o == Outcome.EXIT) {
          return;
        }
        if (session.cancellation().requested()) {
          break; // the rest of the line too
        }
      }
    }
  }
}
