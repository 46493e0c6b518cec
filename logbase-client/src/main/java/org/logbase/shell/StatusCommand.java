package org.logbase.shell;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "status", description = {"Shows the masters, and the tablet servers with their load.",
    "Counters count since a server started; log is the size of all of its log."})
final class StatusCommand extends ShellCommand {
  @Option(names = "--detailed", description = "also each server's tablets, row locks and other counters")
  boolean detailed;

  @Override
  void run() {
    printer().status(client().admin().clusterStatus(), detailed);
  }
}
