package org.logbase.shell;

import org.logbase.common.Version;
import picocli.CommandLine.Command;

@Command(name = "version", description = {"Shows the version of LogBase.", "Of this shell and its client library."})
final class VersionCommand extends ShellCommand {
  @Override
  void run() {
    printer().line("LogBase " + Version.get() + " (shell and client; Java " + Runtime.version() + ")");
  }
}
