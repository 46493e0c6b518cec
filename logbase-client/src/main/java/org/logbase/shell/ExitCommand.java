package org.logbase.shell;

import picocli.CommandLine.Command;

@Command(name = "exit", aliases = "quit", description = "Leaves the shell.")
final class ExitCommand extends ShellCommand {
  @Override
  void run() {
    session().requestExit();
  }
}
