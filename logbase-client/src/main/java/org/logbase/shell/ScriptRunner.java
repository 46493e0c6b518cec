package org.logbase.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.logbase.shell.ShellSession.Outcome;

/** Non-interactive modes: commands from -e or from a script file. */
final class ScriptRunner {
  /** Longest script line: above four values at their limit, written as text. */
  static final int MAX_LINE_CHARS = 32 << 20;

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
    boolean failed = false;
    try (BufferedReader in = Files.newBufferedReader(script)) {
      for (int n = 1; ; n++) {
        String line = readLine(in, script, n);
        if (line == null) {
          break;
        }
        String statement = line.strip();
        if (statement.isEmpty() || statement.startsWith("#")) {
          continue;
        }
        Outcome o = session.execute(statement, script.getFileName() + " line " + n);
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
    } catch (NoSuchFileException e) {
      throw new ShellException("cannot read script " + script + ": no such file");
    } catch (IOException e) {
      throw new ShellException("cannot read script " + script + ": " + e.getMessage());
    }
    return failed ? 1 : 0;
  }

  /**
   * The next line (without its line end), or null at the end; a line longer than {@link
   * #MAX_LINE_CHARS} is refused before it is held whole (a 300 MiB line ran the shell out of memory).
   */
  private static String readLine(BufferedReader in, Path script, int n) throws IOException {
    StringBuilder line = new StringBuilder();
    int c = in.read();
    if (c == -1) {
      return null;
    }
    while (c != -1 && c != '\n') {
      if (line.length() == MAX_LINE_CHARS) {
        throw new ShellException(script.getFileName() + " line " + n + " is longer than " + MAX_LINE_CHARS
            + " characters: a value is at most 8 MiB and a request at most 64 MiB");
      }
      line.append((char) c);
      c = in.read();
    }
    int end = line.length();
    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
  }
}
