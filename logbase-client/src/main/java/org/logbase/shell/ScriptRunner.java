package org.logbase.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.logbase.shell.ShellSession.Outcome;

/** Non-interactive modes: commands from -e or from a script file. */
final class ScriptRunner {
  private final ShellSession session;

  ScriptRunner(ShellSession session) {
    this.session = session;
  }

  /** Runs every ';'-separated command (up to an exit); 0 if all succeeded, else 1. */
  int runCommands(String commands) {
    boolean failed = false;
    for (String statement : Words.statements(commands)) {
      Outcome o = session.execute(statement);
      if (o == Outcome.EXIT) {
        break;
      }
      failed |= o == Outcome.FAILED;
    }
    return failed ? 1 : 0;
  }

  /**
   * Runs a file of one command per line ('#' starts a comment line); stops at the first failure
   * unless {@code continueOnError}. 0 if all succeeded, else 1.
   */
  int runFile(Path script, boolean continueOnError) {
    List<String> lines;
    try {
      lines = Files.readAllLines(script);
    } catch (IOException e) {
      throw new ShellException("cannot read script " + script + ": " + e);
    }
    boolean failed = false;
    for (int i = 0; i < lines.size(); i++) {
      String statement = lines.get(i).strip();
      if (statement.isEmpty() || statement.startsWith("#")) {
        continue;
      }
      Outcome o = session.execute(statement, script.getFileName() + " line " + (i + 1));
      if (o == Outcome.EXIT) {
        break;
      }
      if (o == Outcome.FAILED) {
        failed = true;
        if (!continueOnError) {
          break;
        }
      }
    }
    return failed ? 1 : 0;
  }
}
