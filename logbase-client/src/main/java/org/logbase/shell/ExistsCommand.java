package org.logbase.shell;

import picocli.CommandLine.Command;

@Command(name = "exists", description = "Says whether a table exists.")
final class ExistsCommand extends TableCommand {
  @Override
  void run() {
    printer().line("table " + table + (client().admin().tableExists(table) ? " exists" : " does not exist"));
  }
}
