package org.logbase.shell;

import picocli.CommandLine.Command;

@Command(name = "describe", description = {"Shows a table's column groups and tablets.",
    "Its column groups, and its tablets with their servers."})
final class DescribeCommand extends TableCommand {
  @Override
  void run() {
    printer().description(client().admin().describeTable(table));
  }
}
