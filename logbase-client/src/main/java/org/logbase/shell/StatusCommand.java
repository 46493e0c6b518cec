package org.logbase.shell;

import picocli.CommandLine.Command;

@Command(name = "status", description = "Shows the masters, and the tablet servers with their tablets and load.")
final class StatusCommand extends ShellCommand {
  @Override
  void run() {
    printer().status(client().admin().clusterStatus());
  }
}
