package org.logbase.shell;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "describe", description = "Shows a table's column groups and its tablets with their servers.")
final class DescribeCommand extends ShellCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table's name")
  String table;

  @Override
  void run() {
    printer().description(client().admin().describeTable(table));
  }
}
