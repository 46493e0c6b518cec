package org.logbase.shell;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** A command about one table, named by its first argument; destructive ones ask first unless --yes. */
abstract class TableCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  /** Set by the destructive commands' own --yes option (see {@link Confirmed}). */
  boolean confirmedAlready() {
    return false;
  }

  /**
   * Whether to go on with a destructive change: --yes, or the user said yes; else prints
   * {@code notDone} and the command ends.
   */
  boolean confirm(String question, String notDone) {
    if (confirmedAlready() || session().confirm(question)) {
      return true;
    }
    printer().line(notDone);
    return false;
  }

  /** A destructive table command: asks first unless --yes. */
  abstract static class Confirmed extends TableCommand {
    @Option(names = "--yes", description = "do not ask for confirmation")
    boolean yes;

    @Override
    boolean confirmedAlready() {
      return yes;
    }
  }
}
