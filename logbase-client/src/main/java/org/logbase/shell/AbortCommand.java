package org.logbase.shell;

import picocli.CommandLine.Command;

@Command(name = "abort", aliases = "rollback", description = "Discards the open transaction and its buffered writes.")
final class AbortCommand extends ShellCommand {
  @Override
  void run() {
    session().endTransaction().abort();
    printer().line("aborted");
  }
}
